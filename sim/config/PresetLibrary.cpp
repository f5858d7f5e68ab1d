#include "sim/config/PresetLibrary.hpp"

#include "sim/config/EmbeddedConfigs.hpp"

namespace acmesim {

const ConfigNode* PresetLibrary::find(const std::string& name)
{
  auto it = cache_.find(name);
  if (it == cache_.end()) {
    std::optional<ConfigNode> tree;
    if (const auto text = embedded_cluster_preset(name))
      tree = parse_config(*text, {"preset " + name, SourceLabel::Style::Line}, diags_);
    it = cache_.emplace(name, std::move(tree)).first;
  }
  return it->second ? &*it->second : nullptr;
}

} // namespace acmesim
