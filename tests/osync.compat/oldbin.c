/* A program as old binaries are: it opens files with the sync flags its
   headers gave it and reports what the kernel kept.  Built against the
   unpatched 2.36 headers, or with -DPRE_2_12 against the values of glibc
   before 2.12, where O_SYNC, O_DSYNC and O_RSYNC were all 010000.
   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */

#define _GNU_SOURCE 1
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "old-fcntl.h"

int
main (int argc, char **argv)
{
  static const struct { const char *name; int flag; } req[] =
    {
      { "O_DSYNC", O_DSYNC },
      { "O_SYNC", O_SYNC },
      { "O_RSYNC", O_RSYNC },
      { "O_RSYNC|O_DSYNC", O_RSYNC | O_DSYNC },
      { "O_RSYNC|O_SYNC", O_RSYNC | O_SYNC },
    };
  if (argc != 2)
    return 2;
  char path[4096];
  snprintf (path, sizeof path, "%s/osync-file", argv[1]);
  for (size_t i = 0; i < sizeof req / sizeof req[0]; i++)
    {
      int fds[3];
      fds[0] = open (path, O_RDWR | O_CREAT | req[i].flag, 0600);
      fds[1] = open64 (path, O_RDWR | req[i].flag);
      fds[2] = openat (AT_FDCWD, path, O_RDWR | req[i].flag);
      for (int j = 0; j < 3; j++)
        {
          if (fds[j] < 0)
            {
              perror ("open");
              return 1;
            }
          printf ("%s %d getfl %#o\n", req[i].name, j,
                  fcntl (fds[j], F_GETFL) & ~O_ACCMODE);
          close (fds[j]);
        }
    }
  unlink (path);
  return 0;
}
