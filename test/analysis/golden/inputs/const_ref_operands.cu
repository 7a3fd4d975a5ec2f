// const_ref_operands.cu: operands a header's function takes by const reference are loads
// (interpreter_calls.cpp, opaqueCall). __half2 arithmetic calls `operator*(const __half2&,
// const __half2&)`: fp16ScalarProduct's products and shared reductions were unreported.
// So are the operands of a forwarding reference (`TyVal&& val`): cg::reduce's.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_fp16.h>

namespace cg = cooperative_groups;

// 128 threads, 4-byte half2: each warp reads 128 contiguous bytes of a and of b (4 sectors)
// and writes and reads the shared array without conflict (1 wavefront).
__global__ void halfDot(const half2* a, const half2* b, half2* out) {
  __shared__ half2 v[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  v[threadIdx.x] = a[i] * b[i];  // expect: global load sectors=4 ideal=4 eta=1.00 ; global load sectors=4 ideal=4 eta=1.00 ; shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  if (threadIdx.x < 64) v[threadIdx.x] = v[threadIdx.x] + v[threadIdx.x + 64];  // expect: shared load wavefronts=1 ideal=1 degree=1 ; shared load wavefronts=1 ideal=1 degree=1 ; shared store wavefronts=1 ideal=1 degree=1
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = v[0];  // expect: shared load wavefronts=1 ideal=1 degree=1 ; global store sectors=1 ideal=1 eta=1.00
}

void runDot(const half2* a, const half2* b, half2* out) { halfDot<<<64, 128>>>(a, b, out); }

// cg::reduce(tile, sdata[tid], op) takes its value as `TyVal&&`: sdata[tid] binds as double&
// and is read (reductionMultiBlockCG's line 94: the H200 measured the LDS, 2 wavefronts for
// 32 contiguous doubles). Unreported before: only the store was.
__global__ void tileReduce(double* out) {
  __shared__ double sdata[256];
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  const unsigned int tid = threadIdx.x;
  sdata[tid] = cg::reduce(tile32, sdata[tid], cg::plus<double>());  // expect: shared load wavefronts=2 ideal=2 degree=1 ; shared store wavefronts=2 ideal=2 degree=1
  cg::sync(cta);
  if (tid == 0) out[blockIdx.x] = sdata[0];  // expect: shared load wavefronts=1 ideal=1 degree=1 ; global store sectors=1 ideal=1 eta=1.00
}

void runReduce(double* out) { tileReduce<<<64, 256>>>(out); }
