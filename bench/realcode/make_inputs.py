#!/usr/bin/env python3
"""Input files for the Rodinia programs of bench/realcode/programs.txt whose data/ folder is not
in the public tree: `make_inputs.py KIND FILE` writes FILE (deterministic, seed 7).

  grid512      512*512 floats, one per line (hotspot's temperature and power)
  grid512x8    512*512*8 floats, one per line (hotspot3D)
  graph65536   a random graph of 65,536 nodes in bfs's text format (about 6 edges per node)
  kmeans       4,096 points of 34 features, 'id f1 ... f34' per line (kmeans' kdd_cup format)
"""
import random
import sys


def main():
    kind, path = sys.argv[1], sys.argv[2]
    rng = random.Random(7)
    with open(path, "w") as f:
        if kind in ("grid512", "grid512x8"):
            n = 512 * 512 * (8 if kind == "grid512x8" else 1)
            f.writelines(f"{320 + rng.random() * 20:.4f}\n" for _ in range(n))
        elif kind == "graph65536":
            nodes = 65536
            edges = [[rng.randrange(nodes) for _ in range(rng.randint(2, 10))] for _ in range(nodes)]
            f.write(f"{nodes}\n")
            start = 0
            for e in edges:
                f.write(f"{start} {len(e)}\n")
                start += len(e)
            f.write("\n0\n\n")
            f.write(f"{start}\n")
            for e in edges:
                f.writelines(f"{d} {rng.randint(1, 10)}\n" for d in e)
        elif kind == "kmeans":
            for i in range(4096):
                f.write(str(i + 1) + " " + " ".join(f"{rng.random():.5f}" for _ in range(34)) + "\n")
        else:
            sys.exit(f"make_inputs.py: unknown kind '{kind}'")


if __name__ == "__main__":
    main()
