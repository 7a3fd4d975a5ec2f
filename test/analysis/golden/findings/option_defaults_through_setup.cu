// Sizes a setup function fills from the command line, `p->K = argc > 2 ? atoi(argv[2]) : 1024`,
// into a struct the caller hands it by address: the program's run without options has them at
// their defaults. cudahandbook's gemm samples fill their SgemmProblem so; the loop over `K` was
// counted at the 64 trips of a loop the code does not count while `M` and `N` took 4096, so the
// result's one-off strided store weighed 15.9 % of the kernel's memory time and warned (blind
// panel 40: noise, under 1 % at the program's sizes). A member the program writes only so, of a
// local passed by address, takes the option's default for the cost now (host_options.cpp,
// conditionalOptionDefault; host_values.cpp, memberConstant). Minimal kernels written for this
// test.
#include <cstdlib>

struct Problem {
  int M, K;
  float *A, *C;
};

void setup(Problem* p, int argc, char** argv) {
  p->M = (argc > 1) ? atoi(argv[1]) : 2048;
  p->K = (argc > 2) ? atoi(argv[2]) : 1024;
}

__global__ void rows(int M, int K, const float* A, float* C) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= M) return;
  float s = 0;
  for (int k = 0; k < K; k++) s += A[k * M + r];  // finding: none
  C[r * 8] = s;  // finding: uncoalesced-global-access=note
}

int main(int argc, char** argv) {
  Problem pb;
  setup(&pb, argc, argv);
  rows<<<(pb.M + 255) / 256, 256>>>(pb.M, pb.K, pb.A, pb.C);
  return 0;
}
