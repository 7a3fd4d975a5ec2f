// What one kernel launch costs however little the kernel does, on the GPU it runs on: the
// floor under which a finding's waste per run of the program is less than launching one more
// kernel (model::Arch::launchSeconds, lib/report/src/filter.cpp "MinWastePerRun").
// Prints CSV: case,launches,blocks,threads,microseconds_per_launch
//   back_to_back: launches queued in one stream, one event pair around them all (the
//                 throughput of launches: what one more launch in a sequence adds);
//   synchronised: each launch followed by cudaStreamSynchronize (the latency a host that
//                 waits for the kernel sees).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void empty_kernel(int* sink, int flag) {
  if (flag) sink[blockIdx.x * blockDim.x + threadIdx.x] = 1;  // never taken: flag is 0
}

#define CHECK(x)                                                                        \
  do {                                                                                  \
    cudaError_t e = (x);                                                                \
    if (e != cudaSuccess) {                                                             \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e));   \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)

static double backToBack(int launches, int blocks, int threads, int* sink) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < 100; ++i) empty_kernel<<<blocks, threads>>>(sink, 0);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaEventRecord(start));
  for (int i = 0; i < launches; ++i) empty_kernel<<<blocks, threads>>>(sink, 0);
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  CHECK(cudaGetLastError());
  return 1000.0 * ms / launches;
}

static double synchronised(int launches, int blocks, int threads, int* sink) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  for (int i = 0; i < launches; ++i) {
    empty_kernel<<<blocks, threads>>>(sink, 0);
    CHECK(cudaStreamSynchronize(0));
  }
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  return 1000.0 * ms / launches;
}

int main() {
  int* sink = nullptr;
  CHECK(cudaMalloc(&sink, 1024 * 1024 * sizeof(int)));
  std::printf("case,launches,blocks,threads,microseconds_per_launch\n");
  const int shapes[][2] = {{1, 32}, {132, 256}, {4096, 256}};
  for (int rep = 0; rep < 3; ++rep)
    for (const auto& s : shapes) {
      std::printf("back_to_back,20000,%d,%d,%.3f\n", s[0], s[1], backToBack(20000, s[0], s[1], sink));
      std::printf("synchronised,2000,%d,%d,%.3f\n", s[0], s[1], synchronised(2000, s[0], s[1], sink));
    }
  CHECK(cudaFree(sink));
  return 0;
}
