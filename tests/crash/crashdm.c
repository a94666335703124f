/* The guest side of the crash harness's recording: put ext4 on a
   dm-log-writes target, with the device-mapper ioctls (no dmsetup).
     crashdm setup DATA LOG NAME MNT
       create the log-writes target NAME over the block device DATA
       (an ext4 file system made on the host) logging to LOG, mark
       "crash-start", mount it (ext4) on MNT;
     crashdm mark NAME MARK
       mark the log of NAME;
     crashdm teardown NAME MNT
       unmount MNT (a last flush), mark "crash-done", remove NAME
       (the target logs what is left and its "dm-log-writes-end" mark).
   Prints "crashdm: ok ..." on success, "crashdm: error: ..." and exits
   1 otherwise.  Built statically against the system's C library.
   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */
#define _GNU_SOURCE 1
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <linux/fs.h>
#include "dmlog.h"

static void
die (const char *what)
{
  printf ("crashdm: error: %s: %s\n", what, strerror (errno));
  fflush (stdout);
  exit (1);
}

static void
setup (const char *data, const char *log, const char *name, const char *mnt)
{
  static uint64_t buf[DMLOG_BUF / 8];
  int fd = open (data, O_RDONLY);
  uint64_t bytes;
  if (fd < 0 || ioctl (fd, BLKGETSIZE64, &bytes) != 0)
    die (data);
  close (fd);

  struct dm_ioctl *io = dmlog_header (buf, name);
  if (dmlog_ioctl (DM_DEV_CREATE, io) != 0)
    die ("DM_DEV_CREATE");

  io = dmlog_header (buf, name);
  io->target_count = 1;
  struct dm_target_spec *spec = (void *) ((char *) buf + io->data_start);
  spec->sector_start = 0;
  spec->length = bytes / 512;
  snprintf (spec->target_type, sizeof spec->target_type, "log-writes");
  char *params = (char *) (spec + 1);
  snprintf (params, 256, "%s %s", data, log);
  spec->next = 0;
  if (dmlog_ioctl (DM_TABLE_LOAD, io) != 0)
    die ("DM_TABLE_LOAD log-writes (is dm-log-writes loaded?)");

  io = dmlog_header (buf, name);
  if (dmlog_ioctl (DM_DEV_SUSPEND, io) != 0)	/* No flags: resume.  */
    die ("DM_DEV_SUSPEND (resume)");
  unsigned int minor = minor (io->dev), major = major (io->dev);

  char dev[64];
  snprintf (dev, sizeof dev, "/dev/dm-%u", minor);
  struct stat st;
  if (stat (dev, &st) != 0)
    {
      /* No devtmpfs node: make one.  */
      if (mknod (dev, S_IFBLK | 0600, makedev (major, minor)) != 0)
	die (dev);
    }
  if (dmlog_mark (name, "crash-start") != 0)
    die ("mark crash-start");
  mkdir (mnt, 0755);
  if (mount (dev, mnt, "ext4", 0, NULL) != 0)
    die ("mount");
  printf ("crashdm: ok %s is %s (log-writes %s -> %s), mounted on %s\n",
	  name, dev, data, log, mnt);
}

static void
teardown (const char *name, const char *mnt)
{
  static uint64_t buf[DMLOG_BUF / 8];
  sync ();
  if (umount (mnt) != 0)
    die ("umount");
  if (dmlog_mark (name, "crash-done") != 0)
    die ("mark crash-done");
  struct dm_ioctl *io = dmlog_header (buf, name);
  if (dmlog_ioctl (DM_DEV_REMOVE, io) != 0)
    die ("DM_DEV_REMOVE");
  printf ("crashdm: ok %s removed\n", name);
}

int
main (int argc, char **argv)
{
  if (argc == 6 && strcmp (argv[1], "setup") == 0)
    setup (argv[2], argv[3], argv[4], argv[5]);
  else if (argc == 4 && strcmp (argv[1], "mark") == 0)
    {
      if (dmlog_mark (argv[2], argv[3]) != 0)
	die ("mark");
      printf ("crashdm: ok marked %s\n", argv[3]);
    }
  else if (argc == 4 && strcmp (argv[1], "teardown") == 0)
    teardown (argv[2], argv[3]);
  else
    {
      printf ("crashdm: error: usage: crashdm setup DATA LOG NAME MNT"
	      " | mark NAME MARK | teardown NAME MNT\n");
      return 2;
    }
  fflush (stdout);
  return 0;
}
