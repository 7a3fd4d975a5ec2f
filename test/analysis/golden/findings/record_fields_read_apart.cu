// A record whose fields a thread reads in two places (lib/report/src/rules/aos_field_access.cpp,
// `otherFieldsOfObject`): popsift's prep_features reads octave, xpos, ypos, sigma and num_ori of
// its Extremum together, then idx_ori and the orientation array in a loop. The finding on the
// first group names the fields read elsewhere, and where, instead of calling them unread (blind
// panel 30 judged "the kernel does not read them" false there). Minimal kernel written for this test.
#include <cuda_runtime.h>

struct Extremum {
  float xpos, ypos, sigma;
  int num_ori, idx_ori;
  float orientation[4];
};
struct Feature {
  float xpos, ypos, sigma;
  int num_ori;
  float orientation[4];
  float* desc[4];
};

__global__ void prep(const Extremum* extrema, Feature* features, float* base, int total) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  const Extremum& ext = extrema[i];
  Feature& fet = features[i];
  fet.xpos = ext.xpos * 2.0f;  // finding: aos-field-access=note aos-field-access=note
  fet.ypos = ext.ypos * 2.0f;  // finding: aos-field-access=note aos-field-access=note
  fet.sigma = ext.sigma * 2.0f;  // finding: aos-field-access=note aos-field-access=note
  const int num_ori = ext.num_ori;  // finding: aos-field-access=note
  fet.num_ori = num_ori;  // finding: aos-field-access=note
  for (int ori = 0; ori < num_ori; ori++) {
    fet.desc[ori] = base + ext.idx_ori + ori;  // finding: uncoalesced-global-access=warning aos-field-access=note
    fet.orientation[ori] = ext.orientation[ori];  // finding: uncoalesced-global-access=warning uncoalesced-global-access=note
  }
}

int main() {
  Extremum* e;
  Feature* f;
  float* base;
  cudaMalloc(&e, 1 << 24);
  cudaMalloc(&f, 1 << 24);
  cudaMalloc(&base, 1 << 24);
  for (int frame = 0; frame < 100; ++frame) prep<<<1024, 128>>>(e, f, base, 1024 * 128);
  return 0;
}
