#include "tools/tlens/ProgramRunner.h"

#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "engine/runtime/Devices.h"
#include "lang/pybridge/PyBridge.h"
#include "lang/syntax/SourceFile.h"
#include "lang/syntax/SourceText.h"
#include "lang/tf/exec/KernelExecution.h"

namespace tlens::cli {

std::string readFile(const std::string& path) { return lang::readSourceFile(path); }

LoadedProgram loadProgram(const ProgramOptions& o) {
  std::string text = readFile(o.path);

  LoadedProgram p;
  interp::InterpOptions io;
  io.mode = o.mode;
  io.argv = o.argv;
  io.timeBudgetMs = o.timeBudgetMs;
  io.interrupt = o.interrupt;
  io.out = o.out ? o.out : [](std::string_view s) { std::fwrite(s.data(), 1, s.size(), stdout); std::fflush(stdout); };
  io.err = o.err ? o.err : [](std::string_view s) { std::fwrite(s.data(), 1, s.size(), stderr); };
  p.interp = std::make_unique<interp::Interpreter>(io);
  tf::TfOptions to = o.tf;
  to.execution = &tf::kernelExecution();  // the machine's devices, and the kernels in concrete mode
  if (o.style == "graph") to.style = tf::ApiStyle::Graph;
  else if (o.style == "eager") to.style = tf::ApiStyle::Eager;
  else to.style = tf::detectApiStyle(text);
  p.runtime = tf::installTensorFlow(*p.interp, to);
  if (o.mode == interp::Mode::Concrete) pybridge::installPythonBridge(*p.interp, *p.runtime, {o.python, o.path});
  p.file = std::make_shared<lang::SourceFile>(o.path, std::move(text));
  return p;
}

SplitArgs splitProgramArgs(const std::vector<std::string>& args) {
  SplitArgs s;
  size_t i = 0;
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() > 3 && a.compare(a.size() - 3, 3, ".py") == 0 && (a[0] != '-')) {
      s.program = a;
      ++i;
      break;
    }
    s.flags.push_back(a);
  }
  for (; i < args.size(); ++i) s.programArgs.push_back(args[i]);
  return s;
}

bool parseDeviceFlag(const std::string& flag, const std::function<std::string()>& value, tf::TfOptions& o) {
  if (flag == "--device") {
    std::string d = value();
    if (d != "cpu" && d != "gpu") throw std::invalid_argument("--device must be cpu or gpu");
    o.devices.hideGpus = d == "cpu";
    if (d == "gpu" && o.devices.virtualGpus < 0 && machineDevices().gpuCount() == 0)
      std::fprintf(stderr, "tlens: no GPU: %s; ops run on /cpu:0 (--virtual-gpus N simulates N GPUs)\n",
                   gpuUnavailableReason().c_str());
    return true;
  }
  if (flag == "--virtual-gpus") {
    std::string v = value();
    int n = -1;
    auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (v.empty() || ec != std::errc() || end != v.data() + v.size() || n < 0 || n > 64)
      throw std::invalid_argument("--virtual-gpus takes a count from 0 to 64, not '" + v + "'");
    o.devices.virtualGpus = n;
    return true;
  }
  return false;
}

}  // namespace tlens::cli
