// An access in an `if` arm that ends by leaving its loop (a return, a break) runs at most once
// per entry into that loop, whatever the loop's trip count. SimpleGPUHashTable's lookup probes
// `while (true) { if (hashtable[slot].key == key) { kvs[threadid].value = ...; return; } ... }`:
// its store was costed as 64 iterations of the probe loop (blind panel 32: "the x64 loop
// multiplier is wrong because the store is followed by return"). The probe loads still count
// every iteration (interpreter_statements.cpp, markLeavingAccesses; record_builder.cpp).
// Minimal kernel written for this test.
#include <cuda_runtime.h>

struct Pair {
  unsigned key;
  unsigned value;
};

__global__ void probe(const Pair* table, unsigned* found, const unsigned* keys, unsigned n, unsigned capacity) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  const unsigned key = keys[t];
  unsigned slot = key * 2654435761u & (capacity - 1);
  while (true) {
    const unsigned k = table[slot].key;  // finding: none
    if (k == key) {
      found[t] = table[slot].value;  // finding: none
      return;
    }
    if (k == 0xffffffffu) {
      found[t] = 0xffffffffu;  // finding: none
      break;
    }
    slot = (slot + 1) & (capacity - 1);
  }
}

int main() {
  Pair* table;
  unsigned *found, *keys;
  const unsigned n = 1 << 20;
  cudaMalloc(&table, (1 << 22) * sizeof(Pair));
  cudaMalloc(&found, n * sizeof(unsigned));
  cudaMalloc(&keys, n * sizeof(unsigned));
  probe<<<n / 256, 256>>>(table, found, keys, n, 1 << 22);
  cudaDeviceSynchronize();
  return 0;
}
