#define NEED_GLIBC_2_12 1
#define OLD_OPEN tst_open_osync_old_open_212
#include "tst-open-osync-mod211.c"
