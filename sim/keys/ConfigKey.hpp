#pragma once
// One key of a scenario map, declared once: its name, type, unit, the values it accepts, a
// line of help, and how it fills the section's spec (usually a member). From the declaration
// come the reading and checking of the key (MapReader: the diagnostics of CheckedReader.hpp),
// its value in the resolved-scenario echo of summary.json, and its line in the key reference
// (`acmesim list keys`, docs/scenario-keys.md). The default is not written in the declaration:
// the reference reads it from the spec a section starts from (the struct's default member
// initialisers, or the one function that builds the section's defaults), through the echo.
//
//   number_key("leaf_radix", &FabricSpec::leaf_radix, integer_between(2, 4096), "ports",
//              "ports per leaf switch")
#include "models/common/EnumNames.hpp"
#include "sim/keys/CheckedReader.hpp"
#include "sim/keys/KeyDoc.hpp"

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace acmesim {

template <typename Spec>
class ConfigKey {
public:
  // Reads the key `name`, which the map has, into the spec; false after reporting a problem.
  // Empty: the section reads the key itself, because that takes more than the map (the
  // scenario's directory) or decides which other keys apply.
  using Reader = std::function<bool(MapReader& m, const std::string& name, Spec& spec)>;
  // The key's value in the echo. Empty: the section writes it (or it is not echoed).
  using Echo = std::function<Json(const Spec&)>;
  // The reference lines of the keys under this one, given its path and the section's defaults.
  using Children = std::function<std::vector<KeyDoc>(const std::string& path, const Spec& defaults)>;

  ConfigKey(KeyDoc doc, Reader read, Echo echo, Children children = {})
      : doc_(std::move(doc)), read_(std::move(read)), echo_(std::move(echo)), children_(std::move(children))
  {
  }

  // A key without which the map is incomplete: reading reports it missing.
  ConfigKey required() &&
  {
    required_ = true;
    doc_.default_value = "required";
    return std::move(*this);
  }
  // A default that is not a plain value (derived from other keys, told by a file name): the
  // reference shows `how` instead of the value the spec starts with.
  ConfigKey default_is(std::string how) &&
  {
    doc_.default_value = std::move(how);
    return std::move(*this);
  }

  // The same key read by `read` instead: its own checks and messages.
  ConfigKey read_with(Reader read) &&
  {
    read_ = std::move(read);
    return std::move(*this);
  }
  // A key whose absence means something the reader works out (a section left out is its
  // defaults, checked and completed): the reader is called then too, with the key absent.
  ConfigKey read_when_absent() &&
  {
    read_when_absent_ = true;
    return std::move(*this);
  }

  const std::string& name() const { return doc_.path; }
  bool echoed() const { return static_cast<bool>(echo_); }
  Json echo(const Spec& spec) const { return echo_(spec); }

  // The same key in a larger spec that holds this key's spec as `member`, the keys of both in
  // one map.
  template <typename Outer>
  ConfigKey<Outer> of_member(Spec Outer::*member) const
  {
    typename ConfigKey<Outer>::Reader read;
    if (read_)
      read = [inner = read_, member](MapReader& m, const std::string& key, Outer& outer) {
        return inner(m, key, outer.*member);
      };
    typename ConfigKey<Outer>::Echo echo;
    if (echo_)
      echo = [inner = echo_, member](const Outer& outer) { return inner(outer.*member); };
    typename ConfigKey<Outer>::Children children;
    if (children_)
      children = [inner = children_, member](const std::string& path, const Outer& defaults) {
        return inner(path, defaults.*member);
      };
    ConfigKey<Outer> key(doc_, std::move(read), std::move(echo), std::move(children));
    key.required_ = required_;
    key.read_when_absent_ = read_when_absent_;
    return key;
  }

  // Reads the key if the map has it. An absent key is fine unless it is required; it is then
  // reported when `report_missing`. False after a problem.
  bool read(MapReader& m, Spec& spec, bool report_missing = true) const
  {
    if (!m.get(name())) {
      if (required_ && report_missing)
        m.require(name());
      if (!read_when_absent_ || !read_)
        return !required_;
    }
    return !read_ || read_(m, name(), spec);
  }

  // This key's reference line under `parent`, then those of the keys under it.
  std::vector<KeyDoc> docs(const std::string& parent, const Spec& defaults) const
  {
    KeyDoc doc = doc_;
    doc.path = join_key(parent, doc_.path);
    if (doc.default_value.empty() && echo_)
      describe_default(doc, echo_(defaults));
    std::vector<KeyDoc> out{doc};
    if (children_) {
      std::vector<KeyDoc> more = children_(doc.path, defaults);
      out.insert(out.end(), more.begin(), more.end());
    }
    return out;
  }

private:
  template <typename>
  friend class ConfigKey;

  KeyDoc doc_;
  Reader read_;
  Echo echo_;
  Children children_;
  bool required_ = false;
  bool read_when_absent_ = false;
};

// A key reader written against the key's own node and full key path (`read(checker, node, key,
// spec)`), for values that are read as a whole rather than through MapReader.
template <typename Spec, typename Read>
typename ConfigKey<Spec>::Reader node_reader(Read read)
{
  return [read](MapReader& m, const std::string& name, Spec& spec) {
    return read(m.checker(), *m.get(name), m.key_of(name), spec);
  };
}

// The reference line of `path.<placeholder>`, a number under each name of the enum E, whose
// defaults `defaults` holds in the order of the enum's values.
template <NamedEnum E, typename Defaults>
std::vector<KeyDoc> number_docs_by_name(const std::string& path, const std::string& placeholder,
                                        const NumberRange& range, const std::string& unit, const std::string& help,
                                        const Defaults& defaults)
{
  std::vector<std::pair<std::string, std::vector<KeyDoc>>> per_name;
  for (E name : enum_values<E>()) {
    KeyDoc doc = number_doc(join_key(path, placeholder), range, unit, help + " (" + enum_name_list<E>() + ")");
    describe_default(doc, Json(defaults[static_cast<std::size_t>(name)]));
    per_name.emplace_back(std::string(to_string(name)), std::vector<KeyDoc>{doc});
  }
  return merge_docs_by_name(per_name);
}

// A member's value as the echo writes it: an enum by its name, anything else as it is.
template <typename T>
Json echo_value(const T& value)
{
  if constexpr (NamedEnum<T>)
    return std::string(to_string(value));
  else
    return Json(value);
}

// A number member (int or double) accepted within `range`, in `unit`.
template <typename Spec, typename T>
  requires(std::is_same_v<T, int> || std::is_same_v<T, double>)
ConfigKey<Spec> number_key(std::string name, T Spec::*member, NumberRange range, std::string unit, std::string help)
{
  range.integer = range.integer || std::is_integral_v<T>;
  return {number_doc(name, range, std::move(unit), std::move(help)),
          [member, range](MapReader& m, const std::string& key, Spec& spec) {
            return m.read(key, spec.*member, range);
          },
          [member](const Spec& spec) { return Json(spec.*member); }};
}

// A number written in `unit` and kept `scale` times larger in the spec (hours kept in seconds).
template <typename Spec>
ConfigKey<Spec> scaled_key(std::string name, double Spec::*member, double scale, NumberRange range, std::string unit,
                           std::string help)
{
  return {number_doc(name, range, std::move(unit), std::move(help)),
          [member, scale, range](MapReader& m, const std::string& key, Spec& spec) {
            double written = 0;
            if (!m.read(key, written, range))
              return false;
            spec.*member = written * scale;
            return true;
          },
          [member, scale](const Spec& spec) { return Json(spec.*member / scale); }};
}

// A list of numbers, each within `range`, in `unit`; replaced only when every item is good.
template <typename Spec>
ConfigKey<Spec> number_list_key(std::string name, std::vector<double> Spec::*member, NumberRange range,
                                std::string unit, std::string help)
{
  KeyDoc doc = number_doc(std::move(name), range, std::move(unit), std::move(help));
  doc.type = range.integer ? "list of integers" : "list of numbers";
  doc.accepts = doc.accepts == "any" ? "any numbers" : "each " + doc.accepts;
  return {std::move(doc),
          [member, range](MapReader& m, const std::string& key, Spec& spec) {
            return read_list(m, key, "", spec.*member,
                             [&](const ConfigNode& item, const std::string& item_key, const std::vector<double>&) {
                               return m.checker().number(item, item_key, range);
                             });
          },
          [member](const Spec& spec) { return Json(spec.*member); }};
}

// The reference line of a value_key: what MapReader::read accepts for a T.
template <typename T>
KeyDoc value_doc(std::string name, std::string help)
{
  if constexpr (std::is_same_v<T, bool>) {
    KeyDoc doc = choice_doc(std::move(name), {"true", "false"}, std::move(help));
    doc.type = "boolean";
    return doc;
  }
  else if constexpr (NamedEnum<T>)
    return choice_doc(std::move(name), enum_name_vector<T>(), std::move(help));
  else if constexpr (std::is_same_v<T, std::uint64_t>) {
    constexpr auto max = std::numeric_limits<std::uint64_t>::max();
    KeyDoc doc = other_doc(std::move(name), "integer", "between 0 and " + std::to_string(max), std::move(help));
    doc.numbers = integer_between(0, static_cast<double>(max));
    return doc;
  }
  else
    return other_doc(std::move(name), "string", "any text", std::move(help));
}

// A flag (true or false), a non-empty string, an enum's name, or an unsigned 64-bit integer.
template <typename Spec, typename T>
ConfigKey<Spec> value_key(std::string name, T Spec::*member, std::string help)
{
  return {value_doc<T>(name, std::move(help)),
          [member](MapReader& m, const std::string& key, Spec& spec) { return m.read(key, spec.*member); },
          [member](const Spec& spec) { return echo_value(spec.*member); }};
}

// A non-empty string that a spec may leave unset: its echo is left out while it is empty.
template <typename Spec>
ConfigKey<Spec> text_key(std::string name, std::string Spec::*member, std::string accepts, std::string help)
{
  return {other_doc(std::move(name), "string", std::move(accepts), std::move(help)),
          [member](MapReader& m, const std::string& key, Spec& spec) { return m.read(key, spec.*member); },
          [member](const Spec& spec) {
            return (spec.*member).empty() ? Json(Json::value_t::discarded) : Json(spec.*member);
          }};
}

// A file named by a path relative to the document's directory (ConfigChecker::resolve): kept as
// written (`as_written`, which the echo writes, so that results do not depend on the working
// directory) and as resolved (`resolved`, which the program opens; the echo's when a spec built
// in code has no written form). With `what` ("trace file"), the file must exist and be readable,
// and not be a directory or a device; without, the program that opens it checks it (a plugin's
// loader). Left out of the echo while unset.
template <typename Spec>
ConfigKey<Spec> path_key(std::string name, std::string Spec::*as_written, std::string Spec::*resolved,
                         std::string what, std::string help)
{
  return {other_doc(std::move(name), "path",
                    std::string(what.empty() ? "a path" : "a readable file") + ", relative to the scenario file",
                    std::move(help)),
          [as_written, resolved, what](MapReader& m, const std::string& key, Spec& spec) {
            if (!m.read(key, spec.*as_written))
              return false;
            spec.*resolved = m.checker().resolve(spec.*as_written);
            return what.empty() || check_readable_file(m.checker(), *m.get(key), m.key_of(key), spec.*resolved, what);
          },
          [as_written, resolved](const Spec& spec) {
            const std::string& shown = (spec.*as_written).empty() ? spec.*resolved : spec.*as_written;
            return shown.empty() ? Json(Json::value_t::discarded) : Json(shown);
          }};
}

// A string that must be one of `choices`.
template <typename Spec>
ConfigKey<Spec> choice_key(std::string name, std::string Spec::*member, std::vector<std::string> choices,
                           std::string help)
{
  return {choice_doc(name, choices, std::move(help)),
          [member, choices](MapReader& m, const std::string& key, Spec& spec) {
            return m.read_choice(key, spec.*member, choices);
          },
          [member](const Spec& spec) { return Json(spec.*member); }};
}

} // namespace acmesim
