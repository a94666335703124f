#include "tst-open-osync.c"
