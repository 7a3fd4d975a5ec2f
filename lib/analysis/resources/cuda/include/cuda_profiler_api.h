/* coalesce-lint built-in CUDA headers: cudaProfilerStart/Stop live in cuda_runtime.h. */
#pragma once
#include "cuda_runtime.h"
