/* Calls open and openat many times, for callgrind to count the
   instructions one call costs.  Usage: open-cost FILE N FLAGS
   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */

#define _GNU_SOURCE 1
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Each wraps one call, so that callgrind's inclusive count of the
   function, divided by the number of calls, is the cost of the call.  */
__attribute__ ((noinline)) int
bench_open (const char *path, int flags)
{
  return open (path, flags);
}

__attribute__ ((noinline)) int
bench_openat (const char *path, int flags)
{
  return openat (AT_FDCWD, path, flags);
}

int
main (int argc, char **argv)
{
  if (argc != 4)
    {
      fprintf (stderr, "usage: %s FILE N FLAGS\n", argv[0]);
      return 2;
    }
  int n = atoi (argv[2]);
  int flags = (int) strtol (argv[3], NULL, 0);
  for (int i = 0; i < n; i++)
    {
      int fd = bench_open (argv[1], flags);
      if (fd < 0)
        {
          perror ("open");
          return 1;
        }
      close (fd);
      fd = bench_openat (argv[1], flags);
      if (fd < 0)
        {
          perror ("openat");
          return 1;
        }
      close (fd);
    }
  return 0;
}
