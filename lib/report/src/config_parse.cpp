// Reads `.coalesce-lint.yaml` with LLVM's YAML parser, walking the nodes by hand so that
// every unknown key, rule and option is reported with its line, column and the closest
// known name.
#include <fmt/format.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/YAMLParser.h>

#include "coalesce/report/config.h"
#include "config_checks.h"
#include "suggest.h"

namespace coalesce::report {

namespace yaml = llvm::yaml;

namespace {

// Errors are one line whatever the file holds: a control character quoted from the YAML (a
// key that spans lines, a tab) is written as an escape (found by fuzzing, test/fuzz/).
std::string oneLine(std::string text) {
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (u < 0x20 || u == 0x7f) out += fmt::format("\\x{:02x}", u);
    else out += c;
  }
  return out;
}

class ConfigReader {
 public:
  ConfigReader(std::string_view text, std::string origin) : origin_(std::move(origin)) {
    sm_.setDiagHandler(
        [](const llvm::SMDiagnostic& d, void* ctx) {
          auto* self = static_cast<ConfigReader*>(ctx);
          if (self->error_.empty())
            self->error_ = oneLine(fmt::format("{}:{}:{}: {}", self->origin_, d.getLineNo(), d.getColumnNo() + 1,
                                               d.getMessage().str()));
        },
        this);
    stream_ = std::make_unique<yaml::Stream>(llvm::StringRef(text.data(), text.size()), sm_, false);
  }

  Result<Options> read() {
    Options out;
    auto doc = stream_->begin();
    if (doc != stream_->end()) {
      yaml::Node* root = doc->getRoot();
      if (root && !llvm::isa<yaml::NullNode>(root)) {
        if (auto* map = llvm::dyn_cast<yaml::MappingNode>(root))
          readTop(*map, out);
        else
          fail(root, "expected a mapping of settings (Key: value)");
      }
    }
    if (!error_.empty()) return ReportError{error_};
    return out;
  }

 private:
  void fail(yaml::Node* node, std::string_view message) {
    if (!error_.empty()) return;
    // An alias (`*name`) has no source range of its own: asking its position crashed
    // (found by fuzzing, test/fuzz/); name the file alone then.
    const llvm::SMLoc start = node->getSourceRange().Start;
    if (!start.isValid() || !sm_.FindBufferContainingLoc(start)) {
      error_ = oneLine(fmt::format("{}: {}", origin_, message));
      return;
    }
    const auto [line, col] = sm_.getLineAndColumn(start);
    error_ = oneLine(fmt::format("{}:{}:{}: {}", origin_, line, col, message));
  }

  std::optional<std::string> scalar(yaml::Node* node) {
    llvm::SmallString<64> storage;
    if (auto* s = llvm::dyn_cast_or_null<yaml::ScalarNode>(node)) return s->getValue(storage).str();
    if (auto* b = llvm::dyn_cast_or_null<yaml::BlockScalarNode>(node)) return b->getValue().str();
    if (llvm::isa_and_nonnull<yaml::AliasNode>(node)) fail(node, "YAML aliases (*name) are not supported here");
    else if (node) fail(node, "expected a single value");
    return std::nullopt;
  }

  std::optional<double> number(yaml::Node* node, std::string_view key) {
    auto text = scalar(node);
    double value = 0;
    if (!text) return std::nullopt;
    if (llvm::StringRef(*text).getAsDouble(value)) {
      fail(node, fmt::format("{} must be a number, not '{}'", key, *text));
      return std::nullopt;
    }
    return value;
  }

  void readTop(yaml::MappingNode& map, Options& out) {
    for (auto& kv : map) {
      auto key = scalar(kv.getKey());
      yaml::Node* value = kv.getValue();
      if (!key || !error_.empty()) return;
      if (*key == "Checks" || *key == "WarningsAsErrors") {
        auto list = scalar(value);
        if (!list) return;
        if (auto e = detail::ruleListError(*key, *list); !e.empty()) return fail(value, e);
        (*key == "Checks" ? out.checks : out.warningsAsErrors) = *list;
      } else if (*key == "MinEfficiency") {
        out.minEfficiency = number(value, *key);
        if (out.minEfficiency)
          if (auto e = detail::minEfficiencyError(*out.minEfficiency); !e.empty()) return fail(value, e);
      } else if (*key == "MaxConflictDegree") {
        out.maxConflictDegree = number(value, *key);
        if (out.maxConflictDegree)
          if (auto e = detail::maxConflictDegreeError(*out.maxConflictDegree); !e.empty()) return fail(value, e);
      } else if (*key == "MinCostShare") {
        out.minCostShare = number(value, *key);
        if (out.minCostShare)
          if (auto e = detail::minCostShareError(*out.minCostShare); !e.empty()) return fail(value, e);
      } else if (*key == "MinProgramShare") {
        out.minProgramShare = number(value, *key);
        if (out.minProgramShare)
          if (auto e = detail::shareError("MinProgramShare", *out.minProgramShare); !e.empty()) return fail(value, e);
      } else if (*key == "MinWastePerRun") {
        out.minWastePerRun = number(value, *key);
        if (out.minWastePerRun)
          if (auto e = detail::microsecondsError("MinWastePerRun", *out.minWastePerRun); !e.empty())
            return fail(value, e);
      } else if (*key == "HeaderFilter") {
        out.headerFilter = scalar(value);
        if (out.headerFilter)
          if (auto e = detail::headerFilterError(*out.headerFilter); !e.empty()) return fail(value, e);
      } else if (*key == "SystemHeaders") {
        auto text = scalar(value);
        if (!text) return;
        out.systemHeaders = yaml::parseBool(*text);
        if (!out.systemHeaders) return fail(value, fmt::format("SystemHeaders must be true or false, not '{}'", *text));
      } else if (*key == "Exclude") {
        out.exclude = readList(value);
      } else if (*key == "CheckOptions") {
        readCheckOptions(value, out);
      } else {
        return fail(kv.getKey(),
                    fmt::format("unknown key '{}'{}", *key, detail::didYouMean(*key, detail::topLevelKeys())));
      }
    }
  }

  std::vector<std::string> readList(yaml::Node* node) {
    std::vector<std::string> items;
    if (auto* seq = llvm::dyn_cast_or_null<yaml::SequenceNode>(node)) {
      for (yaml::Node& item : *seq)
        if (auto s = scalar(&item)) items.push_back(*s);
    } else if (auto s = scalar(node)) {
      items.push_back(*s);  // a single glob
    }
    return items;
  }

  void addCheckOption(yaml::Node* keyNode, yaml::Node* valueNode, Options& out) {
    auto key = scalar(keyNode);
    auto value = scalar(valueNode);
    if (!key || !value) return;
    if (auto e = detail::checkOptionError(*key, *value); !e.empty()) return fail(keyNode, e);
    out.checkOptions[*key] = *value;
  }

  // A mapping ("rule.Option: value"), or clang-tidy's older list of {key, value}.
  void readCheckOptions(yaml::Node* node, Options& out) {
    if (auto* map = llvm::dyn_cast_or_null<yaml::MappingNode>(node)) {
      for (auto& kv : *map) addCheckOption(kv.getKey(), kv.getValue(), out);
      return;
    }
    if (auto* seq = llvm::dyn_cast_or_null<yaml::SequenceNode>(node)) {
      for (yaml::Node& item : *seq) {
        auto* entry = llvm::dyn_cast<yaml::MappingNode>(&item);
        if (!entry) return fail(&item, "expected '- key: <rule-id>.<Option>' and 'value: ...'");
        yaml::Node *k = nullptr, *v = nullptr;
        for (auto& kv : *entry) {
          auto name = scalar(kv.getKey());
          if (name == "key") k = kv.getValue();
          else if (name == "value") v = kv.getValue();
          else return fail(kv.getKey(), "expected 'key' and 'value'");
        }
        if (!k || !v) return fail(&item, "expected 'key' and 'value'");
        addCheckOption(k, v, out);
      }
      return;
    }
    if (node) fail(node, "CheckOptions must be a mapping of '<rule-id>.<Option>: value'");
  }

  std::string origin_;
  std::string error_;
  llvm::SourceMgr sm_;
  std::unique_ptr<yaml::Stream> stream_;
};

}  // namespace

Result<Options> parseConfig(std::string_view yamlText, const std::string& origin) {
  return ConfigReader(yamlText, origin).read();
}

Result<Options> loadConfigFile(const std::string& path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) return ReportError{fmt::format("{}: cannot read configuration: {}", path, buffer.getError().message())};
  return parseConfig((*buffer)->getBuffer().str(), path);
}

}  // namespace coalesce::report
