// Entry points of libhetscal that belong to no single layer.
#include "hetscal/hetscal.h"

extern "C" const char* hetscal_version(void) { return HETSCAL_VERSION_STRING; }
