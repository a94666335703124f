/* Dirtying and settling a file for the disk cells of the guest
   (rsynccell.c, fscell.c, fusecell.c): what a synchronized read must make durable,
   and a disk with nothing left to write before each case.
   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */

#ifndef OSYNC_DIRTY_H
#define OSYNC_DIRTY_H

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OSYNC_DIRTY_SIZE 8192

static void
osync_dirty_die (const char *what)
{
  printf ("%s: %s: %s\n", program_invocation_short_name, what,
          strerror (errno));
  exit (1);
}

/* A second process overwrites the first OSYNC_DIRTY_SIZE bytes of PATH
   with bytes of value C and exits without syncing; with HOW 'w', after
   writing the range back with sync_file_range (which flushes nothing);
   with HOW 'd', through O_DIRECT.  */
static void
osync_dirty (const char *path, char c, char how)
{
  pid_t pid = fork ();
  if (pid < 0)
    osync_dirty_die ("fork");
  if (pid == 0)
    {
      static char buf[OSYNC_DIRTY_SIZE] __attribute__ ((aligned (4096)));
      memset (buf, c, sizeof buf);
      int fd = open (path, O_WRONLY | (how == 'd' ? O_DIRECT : 0));
      /* The write must change the file's modification time, and so
         dirty its inode, or fsync costs what fdatasync costs and the
         yardsticks tell nothing apart.  A file system gives a write
         the coarse time of the last clock tick (at least a jiffy, at
         most 10 ms), and since Linux 6.13 (multigrain timestamps) a
         fine-grained one only if the times were queried since their
         last change: a write in the same tick as the one before left
         the time alone, in a round of 7.3-rc7's cell and in one of
         the new 6.12 kernel's overlay row.  The writer waits out a
         tick and queries the times first.  */
      nanosleep (&(struct timespec) { .tv_nsec = 20 * 1000 * 1000 }, NULL);
      struct stat st;
      if (fd < 0 || fstat (fd, &st) != 0
          || pwrite (fd, buf, sizeof buf, 0) != sizeof buf)
        osync_dirty_die ("the writer's pwrite");
      if (how == 'w'
          && sync_file_range (fd, 0, sizeof buf,
                              SYNC_FILE_RANGE_WAIT_BEFORE
                              | SYNC_FILE_RANGE_WRITE
                              | SYNC_FILE_RANGE_WAIT_AFTER) != 0)
        osync_dirty_die ("sync_file_range");
      _exit (0);
    }
  int status;
  if (waitpid (pid, &status, 0) != pid || status != 0)
    {
      printf ("%s: the writer failed\n", program_invocation_short_name);
      exit (1);
    }
}

/* Make PATH and its inode durable and clean, and end with a flush after
   the last write sync makes: the disk then has nothing written since
   its last flush, whatever sync wrote back, so that the next case's
   cost is its own.  (ext4's fdatasync with nothing pending only
   flushes, or does nothing once ext4 knows its data flushed.)  */
static void
osync_settle (const char *path)
{
  int fd = open (path, O_RDWR);
  if (fd < 0 || fsync (fd) != 0)
    osync_dirty_die ("settle: fsync");
  sync ();
  if (fdatasync (fd) != 0)
    osync_dirty_die ("settle: fdatasync");
  close (fd);
}

/* Create PATH, OSYNC_FILE_SIZE bytes of 'a', durable and clean
   (osync_settle): the file the cells read and dirty.  */
#define OSYNC_FILE_SIZE (16 * OSYNC_DIRTY_SIZE)
static void
osync_make_file (const char *path)
{
  char buf[OSYNC_DIRTY_SIZE];
  memset (buf, 'a', sizeof buf);
  int fd = open (path, O_RDWR | O_CREAT | O_TRUNC, 0600);
  for (int i = 0; i < OSYNC_FILE_SIZE / OSYNC_DIRTY_SIZE; i++)
    if (fd < 0 || write (fd, buf, sizeof buf) != sizeof buf)
      osync_dirty_die ("write");
  close (fd);
  osync_settle (path);
}

#endif
