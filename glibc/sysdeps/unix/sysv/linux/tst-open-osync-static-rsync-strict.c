#define TEST_STATIC 1
#include "tst-open-osync.c"
