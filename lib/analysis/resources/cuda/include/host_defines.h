/* coalesce-lint built-in CUDA headers: everything lives in cuda_runtime.h. */
#pragma once
#include "cuda_runtime.h"
