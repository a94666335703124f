/* Disk side of a matrix cell: overwrite 8 KiB of a file on the guest's
   ext4 disk N times with each of plain writes, O_DSYNC and O_SYNC (as
   this program's headers define them), and, as yardsticks measured in
   the same run, plain writes each followed by fdatasync and by fsync;
   a jiffy or more apart so that each write changes the mtime.  Print
   the writes and flushes that reached the disk (/sys/block/DEV/stat)
   during the N writes, as exact totals: "disk NAME WRITES FLUSHES".
   Each is measured ROUNDS times (3) and the smallest count is kept: a
   journal commit that something else in the guest causes only adds
   I/O, so the minimum is what the writes themselves cost.
   Usage: diskcell DIR DEV N
   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */

#define _GNU_SOURCE 1
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "disk-stat.h"
#include "old-fcntl.h"

int
main (int argc, char **argv)
{
  /* SYNC: 1 to fdatasync, 2 to fsync after each write.  */
  static const struct { const char *name; int flag, sync; } req[] =
    {
      { "plain", 0, 0 },
      { "O_DSYNC", O_DSYNC, 0 },
      { "O_SYNC", O_SYNC, 0 },
      { "fdatasync", 0, 1 },
      { "fsync", 0, 2 },
    };
  enum { ROUNDS = 3 };
  if (argc != 4)
    return 2;
  int n = atoi (argv[3]);
  char path[4096], buf[8192];
  memset (buf, 'x', sizeof buf);
  snprintf (path, sizeof path, "%s/diskcell", argv[1]);
  int fd = open (path, O_RDWR | O_CREAT | O_TRUNC, 0600);
  for (int i = 0; i < 128; i++)
    if (fd < 0 || write (fd, buf, sizeof buf) != sizeof buf)
      {
        perror ("write");
        return 1;
      }
  fsync (fd);
  close (fd);
  sync ();
  for (size_t r = 0; r < sizeof req / sizeof req[0]; r++)
    {
      unsigned long wmin = -1, fmin = -1;
      for (int round = 0; round < ROUNDS; round++)
        {
          fd = open (path, O_RDWR | req[r].flag);
          if (fd < 0)
            {
              perror ("open");
              return 1;
            }
          sync ();
          unsigned long w0, f0, w1, f1;
          disk_stat (argv[2], &w0, &f0);
          for (int i = 0; i < n; i++)
            {
              /* Let the clock move on, so that the write changes
                 mtime: file times tick with the jiffy, 10 ms at the
                 lowest HZ (100).  */
              struct timespec ts = { 0, 12 * 1000 * 1000 };
              nanosleep (&ts, NULL);
              if (pwrite (fd, buf, sizeof buf, 0) != sizeof buf)
                {
                  perror ("pwrite");
                  return 1;
                }
              if ((req[r].sync == 1 && fdatasync (fd) != 0)
                  || (req[r].sync == 2 && fsync (fd) != 0))
                {
                  perror ("fsync");
                  return 1;
                }
            }
          disk_stat (argv[2], &w1, &f1);
          close (fd);
          if (w1 - w0 < wmin)
            wmin = w1 - w0;
          if (f1 - f0 < fmin)
            fmin = f1 - f0;
        }
      printf ("disk %s %lu %lu\n", req[r].name, wmin, fmin);
    }
  printf ("disk-writes %d\n", n);
  unlink (path);
  return 0;
}
