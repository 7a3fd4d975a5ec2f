// Panel findings 0, 1, 3, 4, 8, 10 (judged false: struct fields read together). A thread
// reads every field of its own record, one field at a time: together the loads use every
// byte of the sectors they touch, so no field read is a waste, whatever it costs alone.
// Minimal kernels written for this test, after the shape of BlackScholes' float2 options
// and mummergpu's 20-byte MatchInfo.
#include <cuda_runtime.h>

struct MatchInfo {
  int queryid;
  int qrystartpos;
  int matchnode;
  int resultsoffset;
  int edgematch;
};

__global__ void optionPairs(const float2* __restrict__ years, float* __restrict__ out, int n) {
  const int opt = blockIdx.x * blockDim.x + threadIdx.x;
  if (opt < n) {
    const float a = years[opt].x;  // finding: none
    const float b = years[opt].y;  // finding: none
    out[opt] = a * b;              // finding: none
  }
}

__global__ void printMatches(const MatchInfo* __restrict__ matches, int* __restrict__ out, int n) {
  const int matchid = blockIdx.x * blockDim.x + threadIdx.x;
  if (matchid >= n) return;
  const int q = matches[matchid].queryid;        // finding: none
  const int s = matches[matchid].qrystartpos;    // finding: none
  const int node = matches[matchid].matchnode;   // finding: none
  const int off = matches[matchid].resultsoffset;  // finding: none
  const int e = matches[matchid].edgematch;      // finding: none
  out[matchid] = q + s + node + off + e;         // finding: none
}

int main() {
  float2* years;
  float* out;
  MatchInfo* matches;
  int* res;
  cudaMalloc(&years, 1 << 20);
  cudaMalloc(&out, 1 << 20);
  cudaMalloc(&matches, 1 << 22);
  cudaMalloc(&res, 1 << 20);
  optionPairs<<<256, 128>>>(years, out, 256 * 128);
  printMatches<<<256, 128>>>(matches, res, 256 * 128);
  cudaDeviceSynchronize();
  return 0;
}
