// Does a thread's run of global atomics on adjacent words cost what its sectors alone say?
// (docs/findings.md, "Groups": atomics are never grouped.) cudahandbook's n-body adds a body's
// force as `atomicAdd(&force[3*i+0], ax); ...[3*i+1]...; ...[3*i+2]...`: each instruction's lanes
// lie 12 bytes apart, 12 sectors per request where 4 would hold its 128 bytes, and the tool
// reported each as 3x the traffic; blind panel 40 judged that false (the three together fill
// their sectors). Timed here against the same adds to three separate arrays (4 sectors per
// request) and against one add per thread at the 12-byte stride, on the GPU machine:
//   bench/atomic_groups_h200.sh OUTDIR
#include <cstdio>
#include <cuda_runtime.h>

__global__ void interleaved(float* f, int n) {  // x, y, z of body i at 3i, 3i+1, 3i+2
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(&f[3 * i + 0], 1.0f);
  atomicAdd(&f[3 * i + 1], 2.0f);
  atomicAdd(&f[3 * i + 2], 3.0f);
}

__global__ void separate(float* fx, float* fy, float* fz, int n) {  // three arrays
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(&fx[i], 1.0f);
  atomicAdd(&fy[i], 2.0f);
  atomicAdd(&fz[i], 3.0f);
}

__global__ void strideAlone(float* f, int n) {  // one add a thread, 12 bytes apart
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(&f[3 * i + 0], 1.0f);
}

__global__ void contiguousAlone(float* f, int n) {  // one add a thread, 4 bytes apart
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(&f[i], 1.0f);
}

int main() {
  for (int n : {1 << 20, 1 << 24}) {
    float* f = nullptr;
    cudaMalloc(&f, sizeof(float) * 3 * static_cast<size_t>(n));
    cudaMemset(f, 0, sizeof(float) * 3 * static_cast<size_t>(n));
    float* fx = f;
    float* fy = f + n;
    float* fz = f + 2 * static_cast<size_t>(n);
    const int threads = 256, blocks = (n + threads - 1) / threads;
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    auto time = [&](const char* name, auto launch) {
      launch();  // warm-up
      cudaDeviceSynchronize();
      float best = 1e30f;
      for (int r = 0; r < 20; ++r) {
        cudaEventRecord(start);
        launch();
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        float ms = 0;
        cudaEventElapsedTime(&ms, start, stop);
        best = ms < best ? ms : best;
      }
      std::printf("%s,n=%d,best_us=%.2f\n", name, n, best * 1000.0f);
    };
    time("interleaved", [&] { interleaved<<<blocks, threads>>>(f, n); });
    time("separate", [&] { separate<<<blocks, threads>>>(fx, fy, fz, n); });
    time("strideAlone", [&] { strideAlone<<<blocks, threads>>>(f, n); });
    time("contiguousAlone", [&] { contiguousAlone<<<blocks, threads>>>(f, n); });
    cudaFree(f);
    if (cudaGetLastError() != cudaSuccess) return 1;
  }
  return 0;
}
