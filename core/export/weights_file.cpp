#include "core/export/weights_file.h"

#include "core/common/error.h"
#include "core/export/strict_json.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace rig {

using Json = nlohmann::json;

Eigen::SparseMatrix<double, Eigen::RowMajor> readWeightsFile(const std::string& path, const Skeleton& skeleton,
                                                             int vertexCount)
{
    return parseWeightsFile(readFileBytes(path, "weights file"), path, skeleton, vertexCount);
}

Eigen::SparseMatrix<double, Eigen::RowMajor> parseWeightsFile(std::string_view bytes, const std::string& path,
                                                              const Skeleton& skeleton, int vertexCount)
{
    const Json j = parseStrictJson(bytes, path);
    try {
        if (!j.is_object() || j.value("format", "") != "rigsmith-weights")
            throw IoError("'" + path + "' is not a weights file (format must be rigsmith-weights; write one with "
                          "rigsmith weights)");
        if (!j.contains("version"))
            throw IoError(path + ": \"version\" is missing");
        jsonInteger(j["version"], 1, 1, path, "\"version\" (this build reads version 1)");
        std::vector<int> map;
        for (const auto& joint : j.at("joints")) {
            const std::string name = joint.at("name").get<std::string>();
            const auto k = skeleton.find(name);
            if (!k)
                throw InvalidInput("'" + path + "' weights joint '" + name +
                                   "', which the file's skeleton does not have; compute the weights with "
                                   "rigsmith weights FILE --use-file-skeleton");
            map.push_back(*k);
        }
        const auto& vertices = j.at("vertices");
        if (static_cast<int>(vertices.size()) != vertexCount)
            throw InvalidInput("'" + path + "' has " + std::to_string(vertices.size()) + " vertices, the mesh " +
                               std::to_string(vertexCount) + "; was it computed for this file?");
        std::vector<Eigen::Triplet<double>> t;
        for (int i = 0; i < vertexCount; ++i) {
            const auto& js = vertices[static_cast<size_t>(i)].at("joints");
            const auto& ws = vertices[static_cast<size_t>(i)].at("weights");
            if (js.size() != ws.size())
                throw InvalidInput("'" + path + "': vertex " + std::to_string(i) +
                                   " has different numbers of joints and weights");
            for (size_t k = 0; k < js.size(); ++k) {
                if (map.empty() || !ws[k].is_number())
                    throw IoError(path + ": vertex " + std::to_string(i) + ": weight " + std::to_string(k) +
                                  " must be a number of a listed joint, got " + jsonValueText(ws[k]));
                const auto jj = jsonInteger(js[k], 0, static_cast<std::int64_t>(map.size()) - 1, path,
                                            "vertex " + std::to_string(i) + ": joint " + std::to_string(k) +
                                                " (an index into \"joints\")");
                t.emplace_back(i, map[static_cast<size_t>(jj)], ws[k].get<double>());
            }
        }
        Eigen::SparseMatrix<double, Eigen::RowMajor> W(vertexCount, skeleton.jointCount());
        W.setFromTriplets(t.begin(), t.end());
        return W;
    } catch (const Json::exception& e) {
        throw IoError("'" + path + "' is not a valid weights file: " + e.what());
    }
}

} // namespace rig
