/* coalesce-lint built-in CUDA headers: everything lives in cooperative_groups.h. */
#pragma once
#include "../cooperative_groups.h"
