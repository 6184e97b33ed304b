#include "lang/tf/exec/KernelExecution.h"

#include <utility>

#include "engine/runtime/PrintSink.h"
#include "engine/runtime/DebugHooks.h"
#include "engine/runtime/Devices.h"
#include "engine/runtime/Eager.h"
#include "engine/runtime/Session.h"
#include "engine/runtime/SummaryProto.h"

namespace tlens::tf {

namespace {

class KernelTape : public Tape {
 public:
  KernelTape(EagerContext& eager, bool persistent) : eager_(eager), tape_(persistent) {}
  void watch(const EagerValue& v) override { tape_.watch(v); }
  std::vector<Tensor> gradient(const EagerValue& target, const std::vector<EagerValue>& sources) override {
    return tape_.gradient(eager_, target, sources);
  }
  GradientTape& tape() { return tape_; }

 private:
  EagerContext& eager_;
  GradientTape tape_;
};

class KernelSession : public GraphSession {
 public:
  KernelSession(TfRuntime& rt, Graph& g) : rt_(rt), session_(g) {}
  std::vector<Tensor> run(const std::vector<Output>& fetches, const Feeds& feeds,
                          const std::vector<Node*>& targets) override {
    return session_.run(fetches, feeds, targets, RunOptions{rt_.options().checkNumerics, rt_.options().hooks});
  }
  void setGraphSeed(int64_t seed) override { session_.resources().setGraphSeed(seed); }
  CopySummary lastCopies(size_t maxListed) const override {
    const Transfers& tr = session_.lastTransfers();
    CopySummary s{tr.count(), tr.bytes(), {}};
    for (size_t i = 0; i < tr.log().size() && i < maxListed; ++i) {
      const Transfer& x = tr.log()[i];
      s.first.push_back(CopyRecord{x.tensor, x.from, x.to, x.bytes});
    }
    return s;
  }

 private:
  TfRuntime& rt_;
  Session session_;
};

class KernelExecution : public Execution {
 public:
  explicit KernelExecution(TfRuntime& rt) {
    eager_.setDevices(&rt.devices());
    eager_.setHooks(rt.options().hooks);
    eager_.setCheckNumerics(rt.options().checkNumerics);
    rt_ = &rt;
  }

  std::vector<EagerValue> execute(const OpDef& op, const std::vector<EagerValue>& inputs, const Attrs& attrs,
                                  const std::vector<std::string>& varNames, const std::string* deviceScope,
                                  CreationContext& where) override {
    // The context reads the creation context and the device scope from itself: lend it both for
    // the op (a swap, no copy), and take them back whatever happens.
    struct Lend {
      EagerContext& e;
      CreationContext& where;
      bool scoped;
      ~Lend() {
        if (scoped) e.popDevice();
        std::swap(e.creation(), where);
      }
    } lend{eager_, where, deviceScope != nullptr};
    std::swap(eager_.creation(), where);
    if (deviceScope) eager_.pushDevice(*deviceScope);
    return eager_.execute(op, inputs, attrs, varNames);
  }
  bool readsCreation() const override {
    return rt_->options().hooks || rt_->options().checkNumerics || eager_.recording();
  }
  const Placement& lastPlacement() const override { return eager_.lastPlacement(); }
  EagerValue wrap(Tensor t) override { return eager_.wrap(std::move(t)); }

  Tensor* variable(const std::string& name) override { return eager_.resources().variable(name); }
  bool hasVariable(const std::string& name) override {
    return eager_.resources().variable(name) || eager_.resources().variables().count(name);
  }
  void setVariable(const std::string& name, Tensor value) override { eager_.resources().setVariable(name, std::move(value)); }
  void reseed(int64_t graphSeed) override {
    eager_.resources().setGraphSeed(graphSeed);
    eager_.resources().clearRngs();
  }

  std::unique_ptr<Tape> newTape(bool persistent) override { return std::make_unique<KernelTape>(eager_, persistent); }
  void pushTape(Tape& t) override { eager_.pushTape(&static_cast<KernelTape&>(t).tape()); }
  void popTape(Tape& t) override { eager_.popTape(&static_cast<KernelTape&>(t).tape()); }
  GraphSession& newSession(Graph& g) override {
    sessions_.push_back(std::make_unique<KernelSession>(*rt_, g));
    return *sessions_.back();
  }

  std::string summarizeValue(const Tensor& t, int64_t maxEntries) override { return tlens::summarizeValue(t, maxEntries); }
  std::string eventRecord(double wallTime, int64_t step, int field, const std::string& payload,
                          const Graph* graph) override {
    return summary::record(summary::event(wallTime, step, field, graph ? summary::graphDef(*graph) : payload));
  }
  std::string tfRecord(const std::string& data) override { return summary::record(data); }
  uint32_t tfRecordCrc(const std::string& data) override { return summary::maskedCrc(summary::crc32c(data)); }

  EagerContext& eager() { return eager_; }

 private:
  TfRuntime* rt_ = nullptr;
  EagerContext eager_;
  std::vector<std::unique_ptr<KernelSession>> sessions_;
};

class KernelBackend : public ExecutionBackend {
 public:
  DeviceSet machineDevices(const DeviceRequest& request) const override { return tlens::machineDevices(request); }
  std::unique_ptr<Execution> start(TfRuntime& rt) const override { return std::make_unique<KernelExecution>(rt); }
};

}  // namespace

const ExecutionBackend& kernelExecution() {
  static const KernelBackend backend;
  return backend;
}

EagerContext& eagerContext(TfRuntime& rt) {
  auto* e = dynamic_cast<KernelExecution*>(&rt.exec());
  if (!e) throw EngineError(ErrorCode::Internal, "this run does not execute with the kernels");
  return e->eager();
}

}  // namespace tlens::tf
