#define TEST_FORTIFIED 1
#include "tst-open-osync.c"
