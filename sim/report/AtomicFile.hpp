#pragma once
// Result files are written under a temporary name and renamed into place once complete, so a
// crashed or interrupted run never leaves a file that looks whole but is not. Only a regular file
// (or a path where nothing is yet) is replaced so: a device, pipe or socket already at the path is
// written to as a stream, in place (as root, renaming over /dev/null would replace the device), a
// symbolic link is followed (the link stays, the file it names is replaced), "-" is standard
// output, and a directory is refused.
#include <filesystem>
#include <fstream>
#include <ostream>
#include <stdexcept>

namespace acmesim {

// A result file could not be written (full disk, file-size limit, permissions): what and why.
struct WriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class AtomicFile {
public:
  explicit AtomicFile(std::filesystem::path target);
  ~AtomicFile(); // removes the temporary file if commit() was not reached
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::ostream& stream();
  // Flushes, checks for write errors and renames into place; throws WriteError saying why.
  void commit();

private:
  enum class Mode { Replace, InPlace, StandardOutput };
  std::filesystem::path target_;
  std::filesystem::path temporary_; // with Replace
  std::ofstream out_;
  Mode mode_ = Mode::Replace;
  bool committed_ = false;
};

} // namespace acmesim
