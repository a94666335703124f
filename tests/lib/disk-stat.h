/* What reached a block device, for the test programs of the guest.
   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */

#ifndef OSYNC_DISK_STAT_H
#define OSYNC_DISK_STAT_H

#include <stdio.h>
#include <stdlib.h>

/* The writes completed (field 5), the sectors written (field 7, in
   units of 512 bytes) and the flushes completed (field 16) of the block
   device DEV, from /sys/block/DEV/stat.  Exits on error.  */
static inline void
disk_stat_full (const char *dev, unsigned long *writes,
                unsigned long *sectors, unsigned long *flushes)
{
  char path[256];
  unsigned long f[17] = { 0 };
  snprintf (path, sizeof path, "/sys/block/%s/stat", dev);
  FILE *fp = fopen (path, "r");
  if (fp == NULL)
    {
      perror (path);
      exit (1);
    }
  for (int i = 0; i < 17 && fscanf (fp, "%lu", &f[i]) == 1; i++)
    ;
  fclose (fp);
  *writes = f[4];
  *sectors = f[6];
  *flushes = f[15];
}

/* The writes and flushes completed, as disk_stat_full.  */
static inline void
disk_stat (const char *dev, unsigned long *writes, unsigned long *flushes)
{
  unsigned long sectors;
  disk_stat_full (dev, writes, &sectors, flushes);
}

#endif
