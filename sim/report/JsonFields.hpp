#pragma once
// Result records that declare their JSON fields once, next to the struct: their names, in the
// order the file holds them, and the members they are read into and written from:
//
//   struct Utilisation { double busy = 0; double allocated = 0; };
//   constexpr auto json_fields(const Utilisation*)
//   {
//     return fields<Utilisation>("mean_gpu_busy mean_gpu_allocated", &Utilisation::busy, &Utilisation::allocated);
//   }
//
// Writing (to_json) and reading back (from_json) both derive from that list. A std::optional field
// is written as null when empty; an Omittable field is left out. ByName<E, V> is an object keyed
// by the names of enum E.
#include "models/common/EnumNames.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>

namespace acmesim {

// A field that could not be read: its dotted path in the document and why.
class JsonFieldError : public std::runtime_error {
public:
  JsonFieldError(std::string path, std::string why)
      : std::runtime_error("'" + path + "': " + why), path_(std::move(path)), why_(std::move(why))
  {
  }
  const std::string& path() const { return path_; }
  const std::string& why() const { return why_; }

private:
  std::string path_;
  std::string why_;
};

template <typename Record, typename Member>
struct Field {
  std::string_view name;
  Member Record::*member;
};

// The fields of `Record`: `names` (separated by single spaces) paired in order with `members` (of
// Record or of a base of it). Evaluated while compiling (declared_fields), where a count that does
// not match is an error. (constexpr rather than consteval: clang 14 crashes generating code for a
// json_fields that returns what a consteval function made.)
template <typename Record, typename... Members, typename... Owners>
constexpr auto fields(std::string_view names, Members Owners::*... members)
{
  static_assert((std::is_base_of_v<Owners, Record> && ...), "a field must be a member of the record or of its base");
  std::array<std::string_view, sizeof...(Members)> split{};
  std::size_t count = 0;
  for (std::size_t start = 0; start <= names.size(); ++count) {
    const std::size_t end = std::min(names.find(' ', start), names.size());
    if (count == split.size())
      throw "more field names than members";
    split[count] = names.substr(start, end - start);
    start = end + 1;
  }
  if (count != split.size())
    throw "fewer field names than members";
  std::size_t i = 0;
  return std::tuple{Field<Record, Members>{split[i++], static_cast<Members Record::*>(members)}...};
}

template <typename T>
concept JsonRecord = requires { json_fields(static_cast<const T*>(nullptr)); };

// A record's fields, worked out while compiling.
template <JsonRecord Record>
inline constexpr auto declared_fields = json_fields(static_cast<const Record*>(nullptr));

// A field that is present in some records only (absent, not null, when empty).
template <typename T>
struct Omittable : std::optional<T> {
  using std::optional<T>::optional;
  using std::optional<T>::operator=;
};

// An object keyed by the names of an enum, in the enum's order (only the keys it holds).
template <NamedEnum E, typename V>
struct ByName : std::map<E, V> {};

// The name `Record` declares for one of its members (or of its base's).
template <JsonRecord Record, typename Member, typename Owner>
constexpr std::string_view json_name(Member Owner::*member)
{
  const auto wanted = static_cast<Member Record::*>(member);
  std::string_view found;
  std::apply(
      [&](const auto&... f) {
        const auto match = [&](const auto& one) {
          if constexpr (std::is_same_v<decltype(one.member), Member Record::*>)
            if (one.member == wanted)
              found = one.name;
        };
        (match(f), ...);
      },
      declared_fields<Record>);
  return found;
}

namespace json_detail {

// Runs `read` for the field `name`, so that an error names the field's path.
template <typename Read>
void at_field(std::string_view name, Read read)
{
  try {
    read();
  } catch (const JsonFieldError& e) {
    throw JsonFieldError(std::string(name) + "." + e.path(), e.why());
  } catch (const nlohmann::json::exception& e) {
    const std::string what = e.what(); // "[json.exception.type_error.302] type must be number, ..."
    const auto text = what.find("] ");
    throw JsonFieldError(std::string(name), text == std::string::npos ? what : what.substr(text + 2));
  }
}

template <typename Json, typename V>
void write(Json& j, std::string_view name, const V& value)
{
  j[std::string(name)] = value;
}

template <typename Json, typename V>
void write(Json& j, std::string_view name, const std::optional<V>& value)
{
  if (value)
    j[std::string(name)] = *value;
  else
    j[std::string(name)] = nullptr;
}

template <typename Json, typename V>
void write(Json& j, std::string_view name, const Omittable<V>& value)
{
  if (value)
    j[std::string(name)] = *value;
}

template <typename Json, typename V>
void read(const Json& j, std::string_view name, V& value)
{
  at_field(name, [&] { j.at(std::string(name)).get_to(value); });
}

template <typename Json, typename V>
void read(const Json& j, std::string_view name, std::optional<V>& value)
{
  at_field(name, [&] {
    const Json& v = j.at(std::string(name));
    value = v.is_null() ? std::nullopt : std::optional<V>(v.template get<V>());
  });
}

template <typename Json, typename V>
void read(const Json& j, std::string_view name, Omittable<V>& value)
{
  at_field(name, [&] {
    if (const auto it = j.find(std::string(name)); it != j.end())
      value = it->template get<V>();
    else
      value.reset();
  });
}

} // namespace json_detail

template <typename Json, JsonRecord T>
void to_json(Json& j, const T& record)
{
  j = Json::object();
  std::apply([&](const auto&... f) { (json_detail::write(j, f.name, record.*(f.member)), ...); },
             declared_fields<T>);
}

template <typename Json, JsonRecord T>
void from_json(const Json& j, T& record)
{
  std::apply([&](const auto&... f) { (json_detail::read(j, f.name, record.*(f.member)), ...); },
             declared_fields<T>);
}

template <typename Json, NamedEnum E, typename V>
void to_json(Json& j, const ByName<E, V>& map)
{
  j = Json::object();
  for (const auto& [key, value] : map)
    j[std::string(to_string(key))] = value;
}

template <typename Json, NamedEnum E, typename V>
void from_json(const Json& j, ByName<E, V>& map)
{
  map.clear();
  for (const auto& item : j.items()) {
    // Not a structured binding: clang 14 cannot capture one in the lambda below.
    const std::string& name = item.key();
    const auto key = parse_enum<E>(name);
    if (!key)
      throw JsonFieldError(name, "not one of: " + enum_name_list<E>());
    json_detail::at_field(name, [&] { map[*key] = item.value().template get<V>(); });
  }
}

} // namespace acmesim
