#include "symbolic.h"

#include <algorithm>
#include <array>
#include <bit>
#include <numeric>

namespace coalesce::analysis {

namespace {

bool isLeafOp(Op op) {
  switch (op) {
    case Op::ThreadIdx: case Op::BlockIdx: case Op::BlockDim: case Op::GridDim:
    case Op::Symbol: case Op::UniformLoad: case Op::LaneLoad: case Op::Varying:
      return true;
    default:
      return false;
  }
}

uint64_t mix(uint64_t h, uint64_t v) {
  // splitmix64's finaliser over h combined with v: cheap and well spread.
  uint64_t x = h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The structural hash of a node whose args are built (sameStructure's equality).
uint64_t hashOf(const SymExpr& e) {
  uint64_t h = mix(static_cast<uint64_t>(e.op), static_cast<uint64_t>(e.value));
  h = mix(h, static_cast<uint64_t>(static_cast<int64_t>(e.symbolId)));
  if (e.op == Op::UniformLoad || e.op == Op::LaneLoad) h = mix(h, reinterpret_cast<uintptr_t>(&e));
  for (const auto& a : e.args) h = mix(h, a->hash);
  return mix(h, e.args.size());
}

ExprRef make(Op op, std::vector<ExprRef> args, int64_t value = 0, int symbolId = -1) {
  auto e = std::make_shared<SymExpr>();
  e->op = op;
  e->value = value;
  e->symbolId = symbolId;
  e->opsBelow = uint64_t{1} << static_cast<int>(op);
  e->size = 1;
  for (const auto& a : args) {
    e->opsBelow |= a->opsBelow;
    e->size = std::min<uint64_t>(e->size + a->size, uint64_t{1} << 40);
  }
  switch (op) {  // neverKnown (symbolic.h)
    case Op::UniformLoad: case Op::LaneLoad: case Op::Varying: e->neverKnown = true; break;
    case Op::Select: break;  // its arms may be known; select() may fold it away
    case Op::LAnd: case Op::LOr: e->neverKnown = !args.empty() && args[0]->neverKnown; break;  // the second may be skipped
    case Op::Mul:  // `x * 0` folds to 0: both factors must be such
      e->neverKnown = args.size() == 2 && args[0]->neverKnown && args[1]->neverKnown;
      break;
    default:
      for (const auto& a : args) e->neverKnown = e->neverKnown || a->neverKnown;
      break;
  }
  e->args = std::move(args);
  if (e->size > kMaxExprSize) {
    // Too large to follow: an unknown, lane-varying if anything below was.
    const uint64_t varying = (uint64_t{1} << static_cast<int>(Op::ThreadIdx)) |
                             (uint64_t{1} << static_cast<int>(Op::LaneLoad)) |
                             (uint64_t{1} << static_cast<int>(Op::Varying));
    auto u = std::make_shared<SymExpr>();
    u->op = (e->opsBelow & varying) ? Op::Varying : Op::UniformLoad;
    u->opsBelow = uint64_t{1} << static_cast<int>(u->op);
    u->neverKnown = true;
    u->hash = hashOf(*u);
    return u;
  }
  e->hash = hashOf(*e);
  return e;
}

inline std::optional<int64_t> fold(Op op, int64_t a, int64_t b) {
  switch (op) {
    case Op::Add: return a + b;
    case Op::Sub: return a - b;
    case Op::Mul: return a * b;
    case Op::Div: if (b == 0) return std::nullopt; return a / b;
    case Op::Rem: if (b == 0) return std::nullopt; return a % b;
    case Op::Shl: if (b < 0 || b > 62) return std::nullopt; return a << b;
    case Op::Shr: if (b < 0 || b > 62) return std::nullopt; return a >> b;
    case Op::And: return a & b;
    case Op::Or: return a | b;
    case Op::Xor: return a ^ b;
    case Op::Min: return std::min(a, b);
    case Op::Max: return std::max(a, b);
    case Op::Lt: return a < b;
    case Op::Le: return a <= b;
    case Op::Gt: return a > b;
    case Op::Ge: return a >= b;
    case Op::Eq: return a == b;
    case Op::Ne: return a != b;
    case Op::LAnd: return (a != 0) && (b != 0);
    case Op::LOr: return (a != 0) || (b != 0);
    default: return std::nullopt;
  }
}

// __ffs, __popc, __clz of `a`'s low `width` bits.
int64_t bitCountOf(Op op, int64_t a, int64_t width) {
  const uint64_t v = width >= 64 ? static_cast<uint64_t>(a) : static_cast<uint64_t>(a) & ((uint64_t{1} << width) - 1);
  switch (op) {
    case Op::Ffs: return v == 0 ? 0 : std::countr_zero(v) + 1;
    case Op::Popc: return std::popcount(v);
    case Op::Clz: return v == 0 ? width : std::countl_zero(v) - (64 - width);
    default: return 0;
  }
}

const char* opName(Op op) {
  switch (op) {
    case Op::Add: return "+"; case Op::Sub: return "-"; case Op::Mul: return "*";
    case Op::Div: return "/"; case Op::Rem: return "%"; case Op::Shl: return "<<";
    case Op::Shr: return ">>"; case Op::And: return "&"; case Op::Or: return "|";
    case Op::Xor: return "^"; case Op::Lt: return "<"; case Op::Le: return "<=";
    case Op::Gt: return ">"; case Op::Ge: return ">="; case Op::Eq: return "==";
    case Op::Ne: return "!="; case Op::LAnd: return "&&"; case Op::LOr: return "||";
    case Op::Min: return "min"; case Op::Max: return "max";
    case Op::Ffs: return "__ffs"; case Op::Popc: return "__popc"; case Op::Clz: return "__clz";
    default: return "?";
  }
}

}  // namespace

ExprRef constant(int64_t v) { return make(Op::Const, {}, v); }
ExprRef leaf(Op op, int64_t dim) { return make(op, {}, dim); }
ExprRef symbol(int id) { return make(Op::Symbol, {}, 0, id); }

bool sameStructure(const ExprRef& a, const ExprRef& b) {
  if (a == b) return true;
  if (a->hash != b->hash || a->op != b->op || a->value != b->value || a->symbolId != b->symbolId ||
      a->args.size() != b->args.size())
    return false;
  if (a->op == Op::UniformLoad || a->op == Op::LaneLoad) return false;  // distinct loads
  for (size_t i = 0; i < a->args.size(); ++i)
    if (!sameStructure(a->args[i], b->args[i])) return false;
  return true;
}

std::optional<int64_t> asConstant(const ExprRef& e) {
  if (e && e->op == Op::Const) return e->value;
  return std::nullopt;
}

// An offset as an expression plus a constant: `(y * xdim + x) * 8 + 4` -> (`(y * xdim + x) * 8`, 4).
// What tells a vector's components of one element apart where the offset is no affine form (a
// product of a thread's value with an unknown size: relion's `z*xdim*ydim + y*xdim + x`:
// compiler_vectorised.cpp), and two addresses of one array a known distance apart
// (register_forwarding.cpp).
std::pair<ExprRef, int64_t> splitConstant(const ExprRef& e) {
  if (e->op == Op::Const) return {constant(0), e->value};
  if ((e->op == Op::Add || e->op == Op::Sub) && e->args.size() == 2) {
    if (const auto c = asConstant(e->args[1])) {
      auto [rest, k] = splitConstant(e->args[0]);
      return {rest, k + (e->op == Op::Add ? *c : -*c)};
    }
    if (const auto c = asConstant(e->args[0]); c && e->op == Op::Add) {
      auto [rest, k] = splitConstant(e->args[1]);
      return {rest, k + *c};
    }
  }
  return {e, 0};
}

ExprRef unary(Op op, ExprRef a) {
  if (auto c = asConstant(a)) {
    switch (op) {
      case Op::Neg: return constant(-*c);
      case Op::Not: return constant(*c == 0);
      case Op::BitNot: return constant(~*c);
      default: break;
    }
  }
  if (op == Op::Neg && a->op == Op::Neg) return a->args[0];
  return make(op, {std::move(a)});
}

ExprRef bitCount(Op op, ExprRef a, int width) {
  if (auto c = asConstant(a)) return constant(bitCountOf(op, *c, width));
  return make(op, {std::move(a)}, width);
}

ExprRef binary(Op op, ExprRef a, ExprRef b) {
  auto ca = asConstant(a), cb = asConstant(b);
  if (ca && cb)
    if (auto v = fold(op, *ca, *cb)) return constant(*v);
  switch (op) {
    case Op::Add:
      if (ca && *ca == 0) return b;
      if (cb && *cb == 0) return a;
      break;
    case Op::Sub:
      if (cb && *cb == 0) return a;
      break;
    case Op::Mul:
      if ((ca && *ca == 0) || (cb && *cb == 0)) return constant(0);
      if (ca && *ca == 1) return b;
      if (cb && *cb == 1) return a;
      break;
    case Op::Div:
      if (cb && *cb == 1) return a;
      break;
    case Op::Shl: case Op::Shr:
      if (cb && *cb == 0) return a;
      break;
    default:
      break;
  }
  return make(op, {std::move(a), std::move(b)});
}

ExprRef select(ExprRef cond, ExprRef a, ExprRef b) {
  if (auto c = asConstant(cond)) return *c ? a : b;
  if (sameStructure(a, b)) return a;
  return make(Op::Select, {std::move(cond), std::move(a), std::move(b)});
}

bool containsOp(const ExprRef& e, Op op) { return e && ((e->opsBelow >> static_cast<int>(op)) & 1); }

bool dependsOnThread(const ExprRef& e) {
  return containsOp(e, Op::ThreadIdx) || containsOp(e, Op::LaneLoad) || containsOp(e, Op::Varying);
}

bool isUniform(const ExprRef& e) { return !dependsOnThread(e); }

std::string toString(const ExprRef& e, const SymbolTable& symbols) {
  static const char* dims = "xyz";
  switch (e->op) {
    case Op::Const: return std::to_string(e->value);
    case Op::ThreadIdx: return std::string("threadIdx.") + dims[e->value];
    case Op::BlockIdx: return std::string("blockIdx.") + dims[e->value];
    case Op::BlockDim: return std::string("blockDim.") + dims[e->value];
    case Op::GridDim: return std::string("gridDim.") + dims[e->value];
    case Op::Symbol:
      return e->symbolId >= 0 && static_cast<size_t>(e->symbolId) < symbols.size() ? symbols[e->symbolId].name : "?";
    case Op::UniformLoad: return "load";
    case Op::LaneLoad: return e->args.empty() ? "load[lane]" : "load[" + toString(e->args[0], symbols) + "]";
    case Op::Varying: return "varying";
    case Op::Neg: return "-(" + toString(e->args[0], symbols) + ")";
    case Op::Not: return "!(" + toString(e->args[0], symbols) + ")";
    case Op::BitNot: return "~(" + toString(e->args[0], symbols) + ")";
    case Op::Ffs: case Op::Popc: case Op::Clz:
      return std::string(opName(e->op)) + (e->value == 64 ? "ll(" : "(") + toString(e->args[0], symbols) + ")";
    case Op::Select:
      return "(" + toString(e->args[0], symbols) + " ? " + toString(e->args[1], symbols) + " : " +
             toString(e->args[2], symbols) + ")";
    case Op::Min: case Op::Max:
      return std::string(opName(e->op)) + "(" + toString(e->args[0], symbols) + ", " + toString(e->args[1], symbols) + ")";
    default:
      return "(" + toString(e->args[0], symbols) + " " + opName(e->op) + " " + toString(e->args[1], symbols) + ")";
  }
}

std::optional<int64_t> evaluate(const ExprRef& e, const Bindings& b) {
  switch (e->op) {
    case Op::Const: return e->value;
    case Op::ThreadIdx: return b.tid[e->value];
    case Op::BlockIdx: return b.blockIdx[e->value];
    case Op::BlockDim: return b.blockDim[e->value];
    case Op::GridDim: return b.gridDim[e->value];
    case Op::Symbol: {
      auto it = b.symbols.find(e->symbolId);
      if (it == b.symbols.end()) return std::nullopt;
      return it->second;
    }
    case Op::UniformLoad: case Op::LaneLoad: case Op::Varying: return std::nullopt;
    case Op::Neg: case Op::Not: case Op::BitNot: {
      auto a = evaluate(e->args[0], b);
      if (!a) return std::nullopt;
      return e->op == Op::Neg ? -*a : e->op == Op::Not ? static_cast<int64_t>(*a == 0) : ~*a;
    }
    case Op::Ffs: case Op::Popc: case Op::Clz: {
      auto a = evaluate(e->args[0], b);
      if (!a) return std::nullopt;
      return bitCountOf(e->op, *a, e->value);
    }
    case Op::Select: {
      auto c = evaluate(e->args[0], b);
      if (!c) return std::nullopt;
      return evaluate(e->args[*c ? 1 : 2], b);
    }
    case Op::LAnd: case Op::LOr: {
      // Short-circuit like C, so a guard such as `i < n && idx[i] > 0` evaluates
      // where its first half already decides.
      auto a = evaluate(e->args[0], b);
      if (a && e->op == Op::LAnd && *a == 0) return 0;
      if (a && e->op == Op::LOr && *a != 0) return 1;
      auto c = evaluate(e->args[1], b);
      if (!a || !c) return std::nullopt;
      return fold(e->op, *a, *c);
    }
    default: {
      auto a = evaluate(e->args[0], b), c = evaluate(e->args[1], b);
      if (!a || !c) return std::nullopt;
      return fold(e->op, *a, *c);
    }
  }
}

ThreadProgram::ThreadProgram(const ExprRef& e, const Bindings& b) {
  std::unordered_map<const SymExpr*, int> seen;
  compile(e, b, seen);
  values_.resize(steps_.size());
  known_.resize(steps_.size());
  // Only the steps the result reads run per thread: an operand of a node compile() found
  // unknown for every thread is read by nothing (steps come after their operands, so one
  // pass from the last marks them).
  std::vector<bool> live(steps_.size(), false);
  if (!live.empty()) live.back() = true;
  for (size_t i = steps_.size(); i-- > 0;)
    if (live[i] && steps_[i].kind == Kind::Node)
      for (const int operand : {steps_[i].a, steps_[i].b, steps_[i].c})
        if (operand >= 0) live[static_cast<size_t>(operand)] = true;
  for (size_t i = 0; i < steps_.size(); ++i) {
    if (steps_[i].kind == Kind::Fixed) {
      values_[i] = steps_[i].value;
      known_[i] = steps_[i].known;
    } else if (live[i]) {
      perThread_.push_back(static_cast<int>(i));
    }
  }
}

int ThreadProgram::compile(const ExprRef& e, const Bindings& b, std::unordered_map<const SymExpr*, int>& seen) {
  if (auto it = seen.find(e.get()); it != seen.end()) return it->second;
  Step s;
  if (!containsOp(e, Op::ThreadIdx) || e->op == Op::UniformLoad || e->op == Op::LaneLoad || e->op == Op::Varying) {
    // The same for every thread (a load's value is unknown whatever its address).
    const auto v = evaluate(e, b);
    s.known = v.has_value();
    s.value = v.value_or(0);
  } else if (e->op == Op::ThreadIdx) {
    s.kind = Kind::Thread;
    s.value = e->value;
  } else {
    s.kind = Kind::Node;
    s.op = e->op;
    s.value = e->value;  // a bit count's width
    int* slots[3] = {&s.a, &s.b, &s.c};
    for (size_t i = 0; i < e->args.size() && i < 3; ++i) *slots[i] = compile(e->args[i], b, seen);
    // A node whose value run() would find unknown for every thread is that, fixed: an operand
    // unknown before the threads (a load's value) makes every op unknown but a select's arms
    // and a logical op's second operand, which run() reads only for some threads. A branch
    // condition on loaded data (`rr2 <= h2`, the distance of two particles read from memory)
    // then costs nothing per thread (DualSPHysics' interaction kernels: bench/RESULTS.md,
    // "Session 23").
    const auto unknownForAll = [&](int slot) {
      return slot >= 0 && steps_[static_cast<size_t>(slot)].kind == Kind::Fixed && !steps_[static_cast<size_t>(slot)].known;
    };
    const bool firstOnly = s.op == Op::Select || s.op == Op::LAnd || s.op == Op::LOr;
    if (unknownForAll(s.a) || (!firstOnly && (unknownForAll(s.b) || unknownForAll(s.c)))) s = Step{};
  }
  steps_.push_back(s);
  const int slot = static_cast<int>(steps_.size()) - 1;
  seen.emplace(e.get(), slot);
  return slot;
}

// One node's value from its operands' (knownness and value each), as evaluate() gives it:
// run() and runMany() share it, so the two cannot differ.
static void applyNode(Op op, int64_t width, bool ka, int64_t a, bool kb, int64_t b, bool kc, int64_t c, bool& known,
                      int64_t& value) {
  known = false;
  value = 0;
  switch (op) {
    case Op::Neg: case Op::Not: case Op::BitNot:
      known = ka;
      value = op == Op::Neg ? -a : op == Op::Not ? static_cast<int64_t>(a == 0) : ~a;
      return;
    case Op::Ffs: case Op::Popc: case Op::Clz:
      known = ka;
      value = bitCountOf(op, a, width);
      return;
    case Op::Select:
      if (!ka) return;
      known = a ? kb : kc;
      value = a ? b : c;
      return;
    case Op::LAnd: case Op::LOr:
      if (ka && op == Op::LAnd && a == 0) { known = true; value = 0; return; }
      if (ka && op == Op::LOr && a != 0) { known = true; value = 1; return; }
      [[fallthrough]];
    default: {
      if (!ka || !kb) return;
      auto f = fold(op, a, b);
      known = f.has_value();
      value = f.value_or(0);
      return;
    }
  }
}

// Every step runs (both arms of a select too): evaluate() is pure and total, so a value it
// would not have asked for changes nothing, and each step's value and knownness are those
// evaluate() gives for that node.
std::optional<int64_t> ThreadProgram::run(int64_t tx, int64_t ty, int64_t tz) const {
  const int64_t tid[3] = {tx, ty, tz};
  const auto slot = [](int k) { return static_cast<size_t>(k < 0 ? 0 : k); };
  for (const int step : perThread_) {
    const size_t i = static_cast<size_t>(step);
    const Step& s = steps_[i];
    bool known = false;
    int64_t value = 0;
    if (s.kind == Kind::Thread) {
      known = true;
      value = tid[s.value];
    } else {  // a Node (Fixed steps are never listed in perThread_: set at construction)
      const size_t a = slot(s.a), b = slot(s.b), c = slot(s.c);
      applyNode(s.op, s.value, known_[a], values_[a], s.b >= 0 && known_[b], values_[b], s.c >= 0 && known_[c],
                values_[c], known, value);
    }
    known_[i] = known;
    values_[i] = value;
  }
  if (steps_.empty() || !known_.back()) return std::nullopt;
  return values_.back();
}

void ThreadProgram::runMany(const int64_t* tx, const int64_t* ty, const int64_t* tz, size_t n,
                            std::optional<int64_t>* out) const {
  if (steps_.empty()) {
    std::fill(out, out + n, std::nullopt);
    return;
  }
  if (perThread_.empty()) {
    const std::optional<int64_t> v = known_.back() ? std::optional<int64_t>(values_.back()) : std::nullopt;
    std::fill(out, out + n, v);
    return;
  }
  // One row of kBatch values per step; a Fixed step's row holds its value in every column,
  // filled once a call (rows are indexed by step, so operands are read the same way whatever
  // their kind).
  constexpr size_t kBatch = 64;
  const size_t steps = steps_.size();
  // Kept per thread between calls: a block's guards and conditions run thousands of times.
  thread_local std::vector<int64_t> rowValues;
  thread_local std::vector<uint8_t> rowKnown;
  if (rowValues.size() < steps * kBatch) rowValues.resize(steps * kBatch), rowKnown.resize(steps * kBatch);
  for (size_t i = 0; i < steps; ++i)
    if (steps_[i].kind == Kind::Fixed) {
      std::fill_n(rowValues.begin() + static_cast<std::ptrdiff_t>(i * kBatch), kBatch, steps_[i].value);
      std::fill_n(rowKnown.begin() + static_cast<std::ptrdiff_t>(i * kBatch), kBatch, steps_[i].known);
    }
  const int64_t* tids[3] = {tx, ty, tz};
  for (size_t from = 0; from < n; from += kBatch) {
    const size_t m = std::min(kBatch, n - from);
    for (const int step : perThread_) {
      const size_t i = static_cast<size_t>(step);
      const Step& s = steps_[i];
      int64_t* v = rowValues.data() + i * kBatch;
      uint8_t* k = rowKnown.data() + i * kBatch;
      if (s.kind == Kind::Thread) {
        const int64_t* t = tids[s.value] + from;
        for (size_t j = 0; j < m; ++j) v[j] = t[j], k[j] = 1;
        continue;
      }
      const auto rowOf = [&](int slot, const int64_t*& rv, const uint8_t*& rk) {
        const size_t r = static_cast<size_t>(slot < 0 ? 0 : slot) * kBatch;
        rv = rowValues.data() + r;
        rk = rowKnown.data() + r;
      };
      const int64_t *va, *vb, *vc;
      const uint8_t *ka, *kb, *kc;
      rowOf(s.a, va, ka);
      rowOf(s.b, vb, kb);
      rowOf(s.c, vc, kc);
      // The strict binary ops with no undefined case, over the batch at once (values of
      // unknown operands are computed and not read: wrapping arithmetic keeps that defined).
      const auto both = [&](auto f) {
        for (size_t j = 0; j < m; ++j) {
          k[j] = ka[j] & kb[j];
          v[j] = f(va[j], vb[j]);
        }
      };
      using U = uint64_t;
      switch (s.op) {
        case Op::Add: both([](int64_t x, int64_t y) { return static_cast<int64_t>(U(x) + U(y)); }); continue;
        case Op::Sub: both([](int64_t x, int64_t y) { return static_cast<int64_t>(U(x) - U(y)); }); continue;
        case Op::Mul: both([](int64_t x, int64_t y) { return static_cast<int64_t>(U(x) * U(y)); }); continue;
        case Op::And: both([](int64_t x, int64_t y) { return x & y; }); continue;
        case Op::Or: both([](int64_t x, int64_t y) { return x | y; }); continue;
        case Op::Xor: both([](int64_t x, int64_t y) { return x ^ y; }); continue;
        case Op::Min: both([](int64_t x, int64_t y) { return std::min(x, y); }); continue;
        case Op::Max: both([](int64_t x, int64_t y) { return std::max(x, y); }); continue;
        case Op::Lt: both([](int64_t x, int64_t y) { return static_cast<int64_t>(x < y); }); continue;
        case Op::Le: both([](int64_t x, int64_t y) { return static_cast<int64_t>(x <= y); }); continue;
        case Op::Gt: both([](int64_t x, int64_t y) { return static_cast<int64_t>(x > y); }); continue;
        case Op::Ge: both([](int64_t x, int64_t y) { return static_cast<int64_t>(x >= y); }); continue;
        case Op::Eq: both([](int64_t x, int64_t y) { return static_cast<int64_t>(x == y); }); continue;
        case Op::Ne: both([](int64_t x, int64_t y) { return static_cast<int64_t>(x != y); }); continue;
        default:
          for (size_t j = 0; j < m; ++j) {
            bool known = false;
            int64_t value = 0;
            applyNode(s.op, s.value, ka[j], va[j], s.b >= 0 && kb[j], vb[j], s.c >= 0 && kc[j], vc[j], known, value);
            k[j] = known;
            v[j] = value;
          }
      }
    }
    const size_t last = (steps - 1) * kBatch;
    for (size_t j = 0; j < m; ++j)
      out[from + j] = rowKnown[last + j] ? std::optional<int64_t>(rowValues[last + j]) : std::nullopt;
  }
}

namespace {

void addTerms(AffineForm& into, const AffineForm& from, int64_t scale) {
  into.constant += scale * from.constant;
  for (const auto& t : from.terms) {
    bool merged = false;
    for (auto& existing : into.terms)
      if (sameStructure(existing.leaf, t.leaf)) {
        existing.coef += scale * t.coef;
        merged = true;
        break;
      }
    if (!merged) into.terms.push_back({scale * t.coef, t.leaf});
  }
  std::erase_if(into.terms, [](const AffineTerm& t) { return t.coef == 0; });
}

std::optional<AffineForm> opaqueIfUniform(const ExprRef& e) {
  if (!isUniform(e)) return std::nullopt;
  AffineForm f;
  f.terms.push_back({1, e});
  return f;
}

}  // namespace

std::optional<AffineForm> linearize(const ExprRef& e) {
  if (e->op == Op::Const) return AffineForm{e->value, {}};
  if (e->op == Op::LaneLoad || e->op == Op::Varying) return std::nullopt;
  if (isLeafOp(e->op)) return AffineForm{0, {{1, e}}};
  switch (e->op) {
    case Op::Add: case Op::Sub: {
      auto a = linearize(e->args[0]), b = linearize(e->args[1]);
      if (!a || !b) return std::nullopt;
      addTerms(*a, *b, e->op == Op::Add ? 1 : -1);
      return a;
    }
    case Op::Neg: {
      auto a = linearize(e->args[0]);
      if (!a) return std::nullopt;
      AffineForm r;
      addTerms(r, *a, -1);
      return r;
    }
    case Op::Mul: case Op::Shl: {
      auto a = linearize(e->args[0]), b = linearize(e->args[1]);
      if (a && b) {
        if (e->op == Op::Shl) {
          if (!b->terms.empty() || b->constant < 0 || b->constant > 62) return opaqueIfUniform(e);
          AffineForm r;
          addTerms(r, *a, int64_t{1} << b->constant);
          return r;
        }
        if (a->terms.empty()) std::swap(a, b);
        if (b->terms.empty()) {
          AffineForm r;
          addTerms(r, *a, b->constant);
          return r;
        }
      }
      return opaqueIfUniform(e);
    }
    default:
      return opaqueIfUniform(e);
  }
}

}  // namespace coalesce::analysis

namespace coalesce::analysis {

namespace {

using Replace = std::function<ExprRef(const ExprRef&)>;

ExprRef substituteIn(const ExprRef& e, const Replace& replace, uint64_t leafOps, bool share,
                     std::unordered_map<const SymExpr*, ExprRef>& done) {
  if (!(e->opsBelow & leafOps)) return e;
  if (e->args.empty()) {
    if (auto r = replace(e)) return r;
    return e;
  }
  const uint64_t loads = opBit(Op::UniformLoad) | opBit(Op::LaneLoad);
  const bool shareable = share && !(e->opsBelow & loads);
  if (shareable)
    if (auto it = done.find(e.get()); it != done.end()) return it->second;
  // A node has at most three operands (a select's): kept in place, not in a vector per node.
  std::array<ExprRef, 3> args;
  const size_t n = e->args.size();
  bool changed = false;
  for (size_t i = 0; i < n; ++i) {
    args[i] = substituteIn(e->args[i], replace, leafOps, share, done);
    changed = changed || args[i] != e->args[i];
  }
  ExprRef out = e;
  if (changed) {
    if (e->op == Op::Select) out = select(args[0], args[1], args[2]);
    else if (e->op == Op::Ffs || e->op == Op::Popc || e->op == Op::Clz)
      out = bitCount(e->op, args[0], static_cast<int>(e->value));  // the width kept
    else if (n == 1) out = unary(e->op, args[0]);
    else out = binary(e->op, args[0], args[1]);
  }
  if (shareable && !(out->opsBelow & loads)) done.emplace(e.get(), out);  // an oversized result is a load (make)
  return out;
}

}  // namespace

ExprRef substitute(const ExprRef& e, const Replace& replace) {
  std::unordered_map<const SymExpr*, ExprRef> done;
  return substituteIn(e, replace, ~uint64_t{0}, false, done);
}

ExprRef substituteLeaves(const ExprRef& e, const Replace& replace, uint64_t leafOps) {
  std::unordered_map<const SymExpr*, ExprRef> done;
  return substituteIn(e, replace, leafOps, true, done);
}

int64_t knownDivisor(const ExprRef& e, const std::function<int64_t(const ExprRef&)>& leafAlignment) {
  auto abs64 = [](int64_t v) { return v < 0 ? -v : v; };
  switch (e->op) {
    case Op::Const: return e->value == 0 ? 0 : abs64(e->value);  // 0: divisible by anything
    case Op::Add: case Op::Sub:
      return std::gcd(knownDivisor(e->args[0], leafAlignment), knownDivisor(e->args[1], leafAlignment));
    case Op::Neg: return knownDivisor(e->args[0], leafAlignment);
    case Op::Mul: {
      const int64_t a = knownDivisor(e->args[0], leafAlignment), b = knownDivisor(e->args[1], leafAlignment);
      if (a == 0 || b == 0) return 0;
      if (a > (int64_t{1} << 30) || b > (int64_t{1} << 30)) return int64_t{1} << 30;  // plenty, and no overflow
      return a * b;
    }
    case Op::Shl: {
      auto k = asConstant(e->args[1]);
      const int64_t a = knownDivisor(e->args[0], leafAlignment);
      if (!k || *k < 0 || *k > 30) return 1;
      return a == 0 ? 0 : a << *k;
    }
    case Op::Select:
      return std::gcd(knownDivisor(e->args[1], leafAlignment), knownDivisor(e->args[2], leafAlignment));
    default:
      if (e->args.empty()) return std::max<int64_t>(1, leafAlignment(e));
      return 1;
  }
}

std::vector<ExprRef> addends(const ExprRef& e) {
  // (a + b) * c and (a + b) << c distribute, so a uniform part inside a scaled sum
  // still splits off.
  if ((e->op == Op::Mul || e->op == Op::Shl) && asConstant(e->args[1]) &&
      (e->args[0]->op == Op::Add || e->args[0]->op == Op::Sub)) {
    std::vector<ExprRef> out;
    for (auto& part : addends(e->args[0])) out.push_back(binary(e->op, part, e->args[1]));
    return out;
  }
  if (e->op == Op::Mul && asConstant(e->args[0]) && (e->args[1]->op == Op::Add || e->args[1]->op == Op::Sub)) {
    std::vector<ExprRef> out;
    for (auto& part : addends(e->args[1])) out.push_back(binary(Op::Mul, e->args[0], part));
    return out;
  }
  if (e->op == Op::Add) {
    auto l = addends(e->args[0]), r = addends(e->args[1]);
    l.insert(l.end(), r.begin(), r.end());
    return l;
  }
  if (e->op == Op::Sub) {
    auto l = addends(e->args[0]);
    for (auto& r : addends(e->args[1])) l.push_back(unary(Op::Neg, r));
    return l;
  }
  return {e};
}

}  // namespace coalesce::analysis
