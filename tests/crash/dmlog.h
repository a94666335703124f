/* The device-mapper ioctls the crash harness needs, without dmsetup or
   libdevmapper: create a dm-log-writes target, send it a "mark NAME"
   message (what "dmsetup message DEV 0 mark NAME" does), remove it.
   See Documentation/admin-guide/device-mapper/log-writes.rst.
   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */
#ifndef CRASH_DMLOG_H
#define CRASH_DMLOG_H 1
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/dm-ioctl.h>

#define DMLOG_CONTROL "/dev/mapper/control"
#define DMLOG_BUF 4096

static int dmlog_control_fd = -1;

/* Fill BUF (DMLOG_BUF bytes, 8-aligned) with an ioctl header for
   device NAME.  */
static struct dm_ioctl *
dmlog_header (void *buf, const char *name)
{
  struct dm_ioctl *io = buf;
  memset (buf, 0, DMLOG_BUF);
  io->version[0] = DM_VERSION_MAJOR;
  io->version[1] = 0;
  io->version[2] = 0;
  io->data_size = DMLOG_BUF;
  io->data_start = sizeof *io;
  snprintf (io->name, sizeof io->name, "%s", name);
  return io;
}

static int
dmlog_ioctl (unsigned long cmd, struct dm_ioctl *io)
{
  if (dmlog_control_fd < 0)
    dmlog_control_fd = open (DMLOG_CONTROL, O_RDWR | O_CLOEXEC);
  if (dmlog_control_fd < 0)
    return -1;
  return ioctl (dmlog_control_fd, cmd, io);
}

/* Send "mark MARK" to the log-writes device NAME.  0 or -1 (errno).  */
static int
dmlog_mark (const char *name, const char *mark)
{
  static uint64_t buf[DMLOG_BUF / 8];
  struct dm_ioctl *io = dmlog_header (buf, name);
  struct dm_target_msg *msg = (void *) ((char *) buf + io->data_start);
  msg->sector = 0;
  size_t room = DMLOG_BUF - io->data_start - sizeof *msg;
  if ((size_t) snprintf (msg->message, room, "mark %s", mark) >= room)
    {
      errno = ENAMETOOLONG;
      return -1;
    }
  return dmlog_ioctl (DM_TARGET_MSG, io);
}
#endif
