// Fields of a record inside a record, read through a reference to an array element
// (ElasticFusion's `const DataTerm& corresp = corresImg.data[i]; ... corresp.zero.y`): the
// lanes step over the outer record (16 bytes), so that is the record a finding names, with each
// field's path from it. Until session 29 the nested fields named their own record, a 4-byte
// short2, in "reads 13 of the 16 bytes of its record short2" (blind panel 26 read the merged
// form of that message, "2 of the 16", and judged it false; that part was merge's, fixed
// apart). Minimal kernel written for this test.
#include <cuda_runtime.h>

struct Term {
  short2 zero;
  short2 one;
  float diff;
  bool valid;
};

__global__ void nestedFields(const Term* __restrict__ terms, float* __restrict__ out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    const Term& t = terms[i];
    float r = 0.0f;
    if (t.valid) {  // finding: aos-field-access=note
      r = t.diff * t.zero.x + t.zero.y * t.one.x + t.one.y;  // finding: aos-field-access=note
    }
    out[i] = r;
  }
}

int main() {
  Term* terms;
  float* out;
  cudaMalloc(&terms, (1 << 20) * sizeof(Term));
  cudaMalloc(&out, (1 << 20) * sizeof(float));
  for (int k = 0; k < 10; ++k) nestedFields<<<64, 256>>>(terms, out, 1 << 20);
  cudaDeviceSynchronize();
  return 0;
}
