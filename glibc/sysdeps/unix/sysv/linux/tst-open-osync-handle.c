#define TEST_HANDLE 1
#include "tst-open-osync.c"
