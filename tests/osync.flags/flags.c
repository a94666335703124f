/* Print the synchronized-I/O flag values of the <fcntl.h> this program
   is built against, and the sync bits the running kernel keeps (F_GETFL)
   for each request, as "KEY VALUE" lines for flags.exp.
   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */

#define _GNU_SOURCE 1
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#ifndef __O_FULLSYNC
# define __O_FULLSYNC 0		/* Unpatched headers do not name it.  */
#endif
#ifndef __O_RSYNC
# define __O_RSYNC 0
#endif

/* The bits the kernel knows as sync bits, on x86 (asm-generic).  */
#define KERNEL_DSYNC 010000
#define KERNEL_FULLSYNC 04000000
/* OSYNC_RSYNC_BIT comes from the project's facts (flags.exp).  */
#define ALL_SYNC_BITS (KERNEL_DSYNC | KERNEL_FULLSYNC | OSYNC_RSYNC_BIT)

int
main (int argc, char **argv)
{
  static const struct { const char *name; int flag; } req[] =
    {
      { "O_DSYNC", O_DSYNC },
      { "O_SYNC", O_SYNC },
      { "O_RSYNC|O_DSYNC", O_RSYNC | O_DSYNC },
      { "O_RSYNC|O_SYNC", O_RSYNC | O_SYNC },
    };
  printf ("O_DSYNC %#o\nO_SYNC %#o\nO_RSYNC %#o\nO_FSYNC %#o\n"
          "__O_FULLSYNC %#o\n__O_RSYNC %#o\n", O_DSYNC, O_SYNC, O_RSYNC,
          O_FSYNC, __O_FULLSYNC, __O_RSYNC);
  for (size_t i = 0; i < sizeof req / sizeof req[0]; i++)
    {
      int fd = open (argv[1], O_RDWR | O_CREAT | req[i].flag, 0600);
      if (fd < 0)
        {
          perror ("open");
          return 1;
        }
      printf ("getfl:%s %#o\n", req[i].name,
              fcntl (fd, F_GETFL) & ALL_SYNC_BITS);
      close (fd);
    }
  unlink (argv[1]);
  return argc == 2 ? 0 : 1;
}
