#include "models/traces/TraceIo.hpp"

#include "models/traces/FileContent.hpp"

#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filtering_stream.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>

namespace acmesim {

namespace trace_io {

void BadRowLog::add(std::string where, std::string_view key, std::string_view value, std::string_view message)
{
  row_bad_ = true;
  if (++problems_ <= MAX_SHOWN_DIAGNOSTICS)
    shown_.add(std::move(where), std::string(key), std::string(value), std::string(message));
}

bool BadRowLog::end_row()
{
  const bool ok = !row_bad_;
  bad_rows_ += ok ? 0 : 1;
  row_bad_ = false;
  return ok;
}

void BadRowLog::throw_if_any() const
{
  DiagnosticList all = shown_;
  if (problems_ > shown_.size())
    all.add(source_, "", "",
            std::to_string(problems_ - shown_.size()) + " more problems not shown (" + std::to_string(bad_rows_) +
                " bad rows in total)");
  all.throw_if_any();
}

namespace {

Workload read_workload(const TraceInput& input, BadRowPolicy on_bad_row, const JobsReader& read_jobs)
{
  Workload workload;
  workload.source = input.source;
  BadRowLog log(input.source);
  read_jobs(input, workload, log);
  if (on_bad_row == BadRowPolicy::Error)
    log.throw_if_any();
  workload.skipped_rows = log.bad_rows();
  normalise_workload(workload);
  return workload;
}

} // namespace

Workload read_workload(std::istream& in, const std::string& source, BadRowPolicy on_bad_row,
                       const JobsReader& read_jobs)
{
  return read_workload(TraceInput{in, source, 0}, on_bad_row, read_jobs);
}

Workload read_workload_file(const std::string& path, BadRowPolicy on_bad_row, const JobsReader& read_jobs)
{
  TraceFile file(path);
  return read_workload(TraceInput{file.stream(), path, file.size()}, on_bad_row, read_jobs);
}

void reserve_for_lines(std::vector<Job>& jobs, std::uintmax_t size_hint, std::size_t line_length,
                       std::size_t min_line_bytes)
{
  if (size_hint == 0 || jobs.capacity() > 0)
    return;
  const std::uintmax_t line_bytes = std::max<std::uintmax_t>(line_length + 1, min_line_bytes);
  jobs.reserve(static_cast<std::size_t>(size_hint / line_bytes + 16));
}

TraceFile::TraceFile(const std::string& path)
{
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError(Diagnostic{path, "", "", "cannot open file (it is a directory)"});
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  size_ = ec ? 0 : size;
  // A larger buffer than the default 8 KiB cuts the time spent refilling it.
  buffer_.resize(std::size_t{1} << 20);
  in_.rdbuf()->pubsetbuf(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  // Binary mode: the readers strip '\r' themselves, the same way for files and streams.
  in_.open(path, std::ios::binary);
  if (!in_)
    throw InputError(Diagnostic{path, "", "", "cannot open file"});
  std::array<unsigned char, CONTENT_HEAD_BYTES> head{};
  in_.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size()));
  const FileContent content = content_of(std::span(head.data(), static_cast<std::size_t>(in_.gcount())));
  in_.clear();
  in_.seekg(0);
  if (const std::string why = unreadable_content(content); !why.empty())
    throw InputError(Diagnostic{path, "", "", why});
  if (content == FileContent::Gzip) {
    auto gzip = std::make_unique<boost::iostreams::filtering_istream>();
    gzip->push(boost::iostreams::gzip_decompressor());
    gzip->push(in_);
    decompressed_ = std::move(gzip);
    size_ = 0;
  }
}

TraceFile::~TraceFile() = default;

bool LineReader::next(std::string_view& line, std::size_t& line_no)
{
  std::size_t searched = begin_; // bytes before this hold no line break
  for (;;) {
    const char* const first = block_.data() + begin_;
    if (const void* found = std::memchr(block_.data() + searched, '\n', end_ - searched)) {
      const auto length = static_cast<std::size_t>(static_cast<const char*>(found) - first);
      line = std::string_view(first, length);
      begin_ += length + 1;
      break;
    }
    const std::size_t unread = end_ - begin_;
    if (!refill()) {
      if (unread == 0)
        return false;
      line = std::string_view(block_.data() + begin_, unread); // a last line without a line break
      begin_ = end_;
      break;
    }
    searched = unread; // refill moved the unread bytes to the front
  }
  ++line_no;
  if (!line.empty() && line.back() == '\r')
    line.remove_suffix(1);
  return true;
}

bool LineReader::refill()
{
  const std::size_t unread = end_ - begin_;
  std::memmove(block_.data(), block_.data() + begin_, unread);
  begin_ = 0;
  end_ = unread;
  if (end_ == block_.size())
    block_.resize(block_.size() * 2);
  in_.read(block_.data() + end_, static_cast<std::streamsize>(block_.size() - end_));
  end_ += static_cast<std::size_t>(in_.gcount());
  return end_ > unread;
}

bool is_blank(std::string_view line) { return line.find_first_not_of(" \t") == std::string_view::npos; }

std::string_view split_csv_line(std::string_view line, std::vector<std::string_view>& fields, std::string& scratch)
{
  fields.clear();
  scratch.clear();
  scratch.reserve(line.size());
  for (std::size_t pos = 0;;) {
    std::size_t first = pos;
    while (first < line.size() && (line[first] == ' ' || line[first] == '\t'))
      ++first;
    if (first == line.size() || line[first] != '"') {
      const std::size_t comma = std::min(line.find(',', pos), line.size());
      fields.push_back(trim(line.substr(pos, comma - pos)));
      if (comma == line.size())
        return {};
      pos = comma + 1;
      continue;
    }
    const std::size_t start = scratch.size();
    for (pos = first + 1;;) {
      const std::size_t quote = line.find('"', pos);
      if (quote == std::string_view::npos)
        return "expected a closing '\"' before the end of the line";
      scratch.append(line.substr(pos, quote - pos));
      pos = quote + 1;
      if (pos == line.size() || line[pos] != '"')
        break;
      scratch.push_back('"'); // "" inside quotes
      ++pos;
    }
    fields.push_back(std::string_view(scratch).substr(start));
    pos = std::min(line.find_first_not_of(" \t", pos), line.size());
    if (pos == line.size())
      return {};
    if (line[pos] != ',')
      return "expected ',' after a closing '\"'";
    ++pos;
  }
}

std::string_view trim(std::string_view s)
{
  const auto blank = [](char c) { return c == ' ' || c == '\t'; };
  if (s.empty() || (!blank(s.front()) && !blank(s.back()))) // most fields: nothing to trim
    return s;
  const std::size_t first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos)
    return {};
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

std::string read_all(std::istream& in, std::uintmax_t size_hint)
{
  std::string text;
  text.reserve(static_cast<std::size_t>(size_hint));
  std::array<char, 1 << 16> chunk{};
  while (in.read(chunk.data(), chunk.size()) || in.gcount() > 0)
    text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
  return text;
}

std::string line_and_column(std::string_view text, std::size_t offset)
{
  offset = std::min(offset, text.size());
  const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n');
  const std::size_t line_start = offset == 0 ? std::string_view::npos : text.rfind('\n', offset - 1);
  const std::size_t column = line_start == std::string_view::npos ? offset + 1 : offset - line_start;
  return std::to_string(line) + ":" + std::to_string(column);
}

void throw_if_read_error(const std::istream& in, const std::string& source)
{
  if (in.bad())
    throw InputError(Diagnostic{source, "", "", "read error: the file could not be read to its end (a gzip file "
                                                "that is truncated or corrupt stops this way)"});
}

} // namespace trace_io

} // namespace acmesim
