/* A program that asks for synchronized reads alone: O_RSYNC without
   O_DSYNC or O_SYNC.  Built against the patched headers, it relies on
   the library to add the writes of O_SYNC, which O_RSYNC had when it
   was O_SYNC (oldbin.exp).  It writes one block and prints the flags
   the kernel kept.
   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */

#define _GNU_SOURCE 1
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  if (argc != 2)
    return 2;
  char path[4096];
  snprintf (path, sizeof path, "%s/osync-file", argv[1]);
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_RSYNC, 0600);
  if (fd < 0)
    {
      perror ("open");
      return 1;
    }
  static const char block[4096];
  if (write (fd, block, sizeof block) != sizeof block)
    {
      perror ("write");
      return 1;
    }
  printf ("getfl %#o\n", fcntl (fd, F_GETFL) & ~O_ACCMODE);
  close (fd);
  unlink (path);
  return 0;
}
