#include "lang/tf/CheckpointFiles.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace tlens::tf {

namespace {

constexpr const char* kMagic = "tensorlens checkpoint v1";

std::string dataPath(const std::string& prefix) { return prefix + ".data-00000-of-00001"; }
std::string indexPath(const std::string& prefix) { return prefix + ".index"; }

void renameOver(const std::string& from, const std::string& to) {
  if (std::rename(from.c_str(), to.c_str()) != 0) {
    std::remove(from.c_str());
    throw CheckpointError("could not write '" + to + "'");
  }
}

}  // namespace

void writeCheckpoint(const std::string& prefix, const std::vector<std::pair<std::string, Tensor>>& tensors) {
  const std::string data = dataPath(prefix), index = indexPath(prefix);
  const std::string dataTmp = data + ".tmp", indexTmp = index + ".tmp";
  for (const auto& [name, t] : tensors)
    if (t.dtype() == DType::String)  // checked before any file is made
      throw CheckpointError("tensorlens: checkpoints do not hold string variables yet ('" + name + "')");
  std::ostringstream idx;
  idx << kMagic << "\n";
  {
    std::ofstream f(dataTmp, std::ios::binary | std::ios::trunc);
    if (!f) throw CheckpointError("Failed to create a checkpoint file: '" + data + "' (is the directory there?)");
    uint64_t offset = 0;
    for (const auto& [name, t] : tensors) {
      if (name.find_first_of("\t\n") != std::string::npos) throw CheckpointError("bad variable name '" + name + "'");
      f.write(static_cast<const char*>(t.raw()), static_cast<std::streamsize>(t.bytes()));
      idx << name << "\t" << dtypeName(t.dtype()) << "\t" << t.rank();
      for (int64_t d : t.shape()) idx << "\t" << d;
      idx << "\t" << offset << "\t" << t.bytes() << "\n";
      offset += t.bytes();
    }
    f.flush();
    if (!f) {
      std::remove(dataTmp.c_str());
      throw CheckpointError("could not write '" + data + "'");
    }
  }
  {
    std::ofstream f(indexTmp, std::ios::binary | std::ios::trunc);
    f << idx.str();
    f.flush();
    if (!f) {
      std::remove(dataTmp.c_str());
      std::remove(indexTmp.c_str());
      throw CheckpointError("could not write '" + index + "'");
    }
  }
  renameOver(dataTmp, data);
  renameOver(indexTmp, index);
}

std::vector<std::pair<std::string, Tensor>> readCheckpoint(const std::string& prefix) {
  const std::string index = indexPath(prefix);
  std::ifstream in(index);
  if (!in)
    throw CheckpointError("Unsuccessful TensorSliceReader constructor: Failed to find any matching files for " + prefix);
  std::string line;
  if (!std::getline(in, line) || line != kMagic)
    throw CheckpointError("'" + index + "' is not a checkpoint written by tensorlens (TensorFlow's own checkpoints cannot be read yet)");
  std::ifstream data(dataPath(prefix), std::ios::binary);
  if (!data) throw CheckpointError("checkpoint data missing: '" + dataPath(prefix) + "'");
  data.seekg(0, std::ios::end);
  const uint64_t dataSize = static_cast<uint64_t>(data.tellg());
  data.seekg(0);
  std::vector<std::pair<std::string, Tensor>> out;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string part; std::getline(ss, part, '\t');) f.push_back(part);
    auto bad = [&]() { return CheckpointError("damaged checkpoint index '" + index + "': " + line.substr(0, 80)); };
    if (f.size() < 5) throw bad();
    try {
      const auto dt = parseDType(f[1]);
      const size_t rank = std::stoul(f[2]);
      if (!dt || f.size() != 5 + rank) throw bad();
      ConcreteShape shape;
      for (size_t i = 0; i < rank; ++i) shape.push_back(std::stoll(f[3 + i]));
      const uint64_t offset = std::stoull(f[3 + rank]), bytes = std::stoull(f[4 + rank]);
      uint64_t n = 1;
      for (int64_t d : shape) {
        if (d < 0 || (d > 0 && n > (uint64_t{1} << 62) / static_cast<uint64_t>(d))) throw bad();
        n *= static_cast<uint64_t>(d);
      }
      if (n * dtypeSize(*dt) != bytes || offset + bytes > dataSize) throw bad();  // checked before allocating
      Tensor t(*dt, shape);
      data.seekg(static_cast<std::streamoff>(offset));
      if (!data.read(static_cast<char*>(t.raw()), static_cast<std::streamsize>(bytes)))
        throw CheckpointError("checkpoint data truncated: '" + dataPath(prefix) + "'");
      out.emplace_back(f[0], std::move(t));
    } catch (const std::logic_error&) {
      throw bad();
    }
  }
  return out;
}

}  // namespace tlens::tf
