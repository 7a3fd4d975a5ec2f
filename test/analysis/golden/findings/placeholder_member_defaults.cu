// A record whose size members default to 0 in the class (`unsigned int iVolX = 0;`), passed
// by value to the function that launches: ASTRA's SDimensions3D, whose real values its files
// outside the CUDA folder set (blind panel 32). The in-class 0 was taken as the one value the
// program writes: the grid `(dims.iVolX + 15) / 16` came out as zero blocks, the border test
// was counted in block 0 alone (every warp there holds a border lane: "splits 8 of 8 warp
// requests"), and the kernel's `d.iVolX` stride read as 0. A default of 0 or less is a
// placeholder now (host_summary.cpp, VisitFieldDecl), and a launch axis of 0 or less is not a
// run's value (host_values.cpp, dim3AxesOf). Minimal kernel written for this test.
#include <cuda_runtime.h>

struct Dims3 {
  unsigned int iVolX = 0;
  unsigned int iVolY = 0;
  unsigned int iVolZ = 0;
};

__global__ void smoothInterior(float* out, const float* in, Dims3 dims) {
  unsigned int x = threadIdx.x + 16 * blockIdx.x;
  unsigned int y = threadIdx.y + 16 * blockIdx.y;
  // Only the edge blocks' border warps split: the interior blocks stand for the grid.
  if (x > 0 && x < dims.iVolX - 1 && y > 0 && y < dims.iVolY - 1) {  // finding: none
    float sum = 0.0f;
    for (unsigned int z = 0; z < dims.iVolZ; z++) sum += in[(z * dims.iVolY + y) * dims.iVolX + x];  // finding: none
    out[y * dims.iVolX + x] = sum;  // finding: none
  }
}

void smooth(float* out, const float* in, Dims3 dims) {
  dim3 blockSize(16, 16);
  dim3 gridSize((dims.iVolX + 15) / 16, (dims.iVolY + 15) / 16);
  smoothInterior<<<gridSize, blockSize>>>(out, in, dims);
}
