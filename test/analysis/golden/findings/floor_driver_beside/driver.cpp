// The program's `main` for demo_kernels.cu beside it (a test input: see that file).
#include <cstdlib>

void runDemoOnce(float* image);

int main() {
  float* image = static_cast<float*>(std::malloc(256 * 256 * sizeof(float)));
  runDemoOnce(image);
  std::free(image);
  return 0;
}
