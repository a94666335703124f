/* One cell of the test matrix: open a file with each synchronized-I/O
   request as this program's headers define it, and the __O_RSYNC bit
   of the patched headers with O_DSYNC, and print, for each,
   the flags it asked for and the sync bits F_GETFL reports.
   Build with -DPRE_2_12 for the values of glibc before 2.12.
   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */

#define _GNU_SOURCE 1
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "old-fcntl.h"

/* x86 sync bits: O_DSYNC, __O_SYNC, and the patch's __O_RSYNC (from
   the project's facts, -DOSYNC_RSYNC_BIT).  */
#define SYNC_BITS (010000 | 04000000 | OSYNC_RSYNC_BIT)

int
main (int argc, char **argv)
{
  static const struct { const char *name; int flag; } req[] =
    {
      { "O_DSYNC", O_DSYNC },
      { "O_SYNC", O_SYNC },
      { "O_RSYNC|O_DSYNC", O_RSYNC | O_DSYNC },
      /* The bit itself, whatever these headers call O_RSYNC: an old
         library forwards it from a newer caller, and the old versions
         of open pass it only to a kernel that implements it.  */
      { "__O_RSYNC|O_DSYNC", OSYNC_RSYNC_BIT | O_DSYNC },
    };
  if (argc != 2)
    return 2;
  for (size_t i = 0; i < sizeof req / sizeof req[0]; i++)
    {
      int fd = openat (AT_FDCWD, argv[1], O_RDWR | O_CREAT | req[i].flag,
                       0600);
      if (fd < 0)
        {
          perror ("openat");
          return 1;
        }
      printf ("%s %#o %#o\n", req[i].name, req[i].flag,
              fcntl (fd, F_GETFL) & SYNC_BITS);
      close (fd);
    }
  unlink (argv[1]);
  return 0;
}
