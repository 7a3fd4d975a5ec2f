// A const method of the C++ library's, Thrust's or libcu++'s classes returns what its object
// and arguments give, as a header's free function does. CUDASW4's kernels take the selected
// sequences as a `thrust::counting_iterator<int>` and find their sequence at
// `devOffsets[d_positions[blockIdx.x]]`, the same in every lane of a block; the iterator's
// operator[] was taken to read anything, thread identity included, so each read of the sequence
// was "a gather through loaded indices: 1 to 32 sectors per request" (panel 40, judged false:
// the lanes read one contiguous run from a block's own base). Here the same with std::array's
// operator[], which CI's headers have (interpreter_calls.cpp, pureLibraryMethod). Minimal kernels
// written for this test.
#include <array>
#include <cuda_runtime.h>

__global__ void sequences(const char* chars, const long* offsets, const std::array<int, 4> order, int* out) {
  const long base = offsets[order[blockIdx.x % 4]];  // finding: none
  const char* s = chars + base;
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x];  // finding: none
}

// The same method with a lane's own index is a gather still.
__global__ void lanes(const char* chars, const long* offsets, const std::array<int, 32> order, int* out) {
  const long base = offsets[order[threadIdx.x % 32]];  // finding: none
  out[blockIdx.x * blockDim.x + threadIdx.x] = chars[base];  // finding: scattered-indirect-access=note
}

void launch(const char* chars, const long* offsets, int* out) {
  sequences<<<4, 128>>>(chars, offsets, std::array<int, 4>{0, 1, 2, 3}, out);
  std::array<int, 32> order{};
  lanes<<<4, 128>>>(chars, offsets, order, out);
}
