/* Test programs include this after <fcntl.h>.  Built with -DPRE_2_12,
   they get the synchronized-I/O flags of glibc before 2.12, where
   O_SYNC, O_DSYNC and O_RSYNC were all 010000 (on x86): the program is
   then as a binary built in 2009 is.
   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */

#ifdef PRE_2_12
# undef O_SYNC
# undef O_DSYNC
# undef O_RSYNC
# define O_SYNC 010000
# define O_DSYNC 010000
# define O_RSYNC 010000
#endif
