#include "models/traces/FileContent.hpp"

#include <algorithm>
#include <array>
#include <initializer_list>

namespace acmesim {

namespace {

bool starts_with(std::span<const unsigned char> head, std::initializer_list<unsigned char> magic)
{
  return head.size() >= magic.size() && std::equal(magic.begin(), magic.end(), head.begin());
}

} // namespace

FileContent content_of(std::span<const unsigned char> head)
{
  // The magic numbers of each format's specification: gzip (RFC 1952), bzip2 ("BZh"), xz, zstd
  // (RFC 8878), zip (local file header), 7z.
  if (starts_with(head, {0x1f, 0x8b}))
    return FileContent::Gzip;
  if (starts_with(head, {'B', 'Z', 'h'}))
    return FileContent::Bzip2;
  if (starts_with(head, {0xfd, '7', 'z', 'X', 'Z', 0x00}))
    return FileContent::Xz;
  if (starts_with(head, {0x28, 0xb5, 0x2f, 0xfd}))
    return FileContent::Zstd;
  if (starts_with(head, {'P', 'K', 0x03, 0x04}))
    return FileContent::Zip;
  if (starts_with(head, {'7', 'z', 0xbc, 0xaf, 0x27, 0x1c}))
    return FileContent::SevenZip;
  // Text in any encoding acmesim reads (ASCII, UTF-8) has no NUL byte.
  if (std::find(head.begin(), head.end(), 0) != head.end())
    return FileContent::Binary;
  return FileContent::Text;
}

std::string unreadable_content(FileContent content)
{
  const auto compressed = [](const std::string& what, const std::string& tool) {
    return "is compressed with " + what + ", which acmesim does not read (it reads plain text and gzip); "
           "decompress it first (" + tool + ")";
  };
  switch (content) {
  case FileContent::Text:
  case FileContent::Gzip:
    return "";
  case FileContent::Bzip2:
    return compressed("bzip2", "bunzip2 FILE");
  case FileContent::Xz:
    return compressed("xz", "unxz FILE");
  case FileContent::Zstd:
    return compressed("zstd", "unzstd FILE");
  case FileContent::Zip:
    return compressed("zip", "unzip FILE");
  case FileContent::SevenZip:
    return compressed("7-Zip", "7z x FILE");
  case FileContent::Binary:
    break;
  }
  return "is a binary file (it holds NUL bytes), not a text trace nor a known compression";
}

} // namespace acmesim
