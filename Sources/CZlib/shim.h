#ifndef BLUETAPE_CZLIB_SHIM_H
#define BLUETAPE_CZLIB_SHIM_H
#include <zlib.h>
#endif
