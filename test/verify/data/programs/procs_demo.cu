// A program that forks and launches from several threads (issue #19): the verifier's collector
// must measure each process apart and keep each thread's launches whole.
//  1. fork() before CUDA is initialised: parent and child each use CUDA on their own and each
//     writes its own measurements (COALESCE_VERIFY_PER_PROCESS).
//  2. four host threads launch `fill` 25 times each, each thread with its own n (four configurations).
//  3. fork() after CUDA is initialised: the child exits at once without using CUDA; it must not
//     write its parent's counters as its own.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <thread>
#include <vector>

__global__ void fill(float* a, int n, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = v;
}

__global__ void stride2(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[2 * i];
}

int main() {
  const int n = 1 << 16;
  const pid_t child = fork();
  if (child < 0) return 1;
  float *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, 2 * n * sizeof(float)) != cudaSuccess || cudaMalloc(&b, n * sizeof(float)) != cudaSuccess)
    return 1;
  if (child == 0) {  // the first child: its own CUDA context, its own kernel
    stride2<<<n / 256, 256>>>(a, b);
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
  }
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([=] {
      cudaStream_t s;
      cudaStreamCreate(&s);
      for (int k = 0; k < 25; ++k) fill<<<n / 256, 256, 0, s>>>(a, n - 32 * t, float(k));
      cudaStreamSynchronize(s);
      cudaStreamDestroy(s);
    });
  for (std::thread& t : threads) t.join();
  int status = 0;
  waitpid(child, &status, 0);
  const pid_t late = fork();  // CUDA is initialised here: the child must not touch it
  if (late == 0) _exit(0);
  int lateStatus = 0;
  waitpid(late, &lateStatus, 0);
  const pid_t lateExit = fork();  // the same, leaving through exit(): atexit handlers run in the child
  if (lateExit == 0) exit(0);
  waitpid(lateExit, &lateStatus, 0);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("procs_demo: %s, child exit %d\n", cudaGetErrorString(e), WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return e == cudaSuccess && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
