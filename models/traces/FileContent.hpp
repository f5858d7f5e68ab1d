#pragma once
// What an input file holds, told by its first bytes rather than its name: text, a gzip stream
// (which the readers decompress as they read: the Parallel Workloads Archive ships its logs as
// .swf.gz), another compression acmesim does not read, or binary data that is no trace at all.
#include <cstdint>
#include <span>
#include <string>

namespace acmesim {

enum class FileContent : std::uint8_t { Text, Gzip, Bzip2, Xz, Zstd, Zip, SevenZip, Binary };

// The bytes a file's content is told from: enough for every magic number and a look for NUL bytes.
inline constexpr std::size_t CONTENT_HEAD_BYTES = 4096;

// The content `head` (the file's first bytes, fewer for a short file) starts. Text is anything
// else without a NUL byte in it.
FileContent content_of(std::span<const unsigned char> head);

// Why a file of `content` cannot be read (empty for Text and Gzip), with what to do about it.
std::string unreadable_content(FileContent content);

} // namespace acmesim
