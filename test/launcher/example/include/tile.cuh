// The tile width; the build defines TILE=32 (CMakeLists.txt), so a launcher that dropped the
// build's flags would analyse 16.
#pragma once
#ifndef TILE
#define TILE 16
#endif
