// The document's files: saving and opening projects (with crash recovery),
// exporting glTF and BVH, each through the pipeline's stages off the GUI thread.
#include "ui/document.h"

#include "core/common/error.h"
#include "core/export/gltf_export.h"
#include "core/motion/bvh_file.h"
#include "core/rig/bone_names.h"

#include <utility>

namespace rig::ui {

bool Document::saveProject(const QString& path, const std::optional<ProjectCamera>& camera, bool autosave)
{
    if (!m_project.character()) {
        if (!autosave)
            emit stageFailed(Task::Save, tr("Nothing to save: open a character first."));
        return false;
    }
    try {
        ProjectSaveState state;
        state.clipPath = m_project.clip() ? m_project.clip()->path : std::string();
        state.camera = camera;
        state.includeWeights = true;
        ProjectFile file = projectFileFrom(m_project, state);
        if (file.computedWeights && m_project.skinning() && m_paintedSkinning.lock() == m_project.skinning())
            file.weights.names[paintedWeightsKey] = "yes"; // reopening keeps them (issue 18)
        if (autosave) // what a recovery reopens it as
            file.autosaveOf = m_projectPath.toStdString(); // empty: a session never saved
        writeProjectFile(file, path.toStdString());
    } catch (const std::exception& e) {
        emit stageFailed(autosave ? Task::Autosave : Task::Save, QString::fromUtf8(e.what()));
        return false;
    }
    if (!autosave) {
        m_projectPath = path;
        m_recovered = false;
        m_undo.setClean();
        setModified(false);
    }
    return true;
}

void Document::openProject(const QString& path, const QString& mesh)
{
    const std::string file = path.toStdString();
    const std::string meshPath = mesh.toStdString();
    // Reading and checking the file is fast: a broken project or a missing
    // mesh is reported at once, before any stage starts.
    try {
        ProjectFile pf = readProjectFile(file);
        if (!meshPath.empty())
            pf.meshPath = meshPath;
        const MeshCheck check = checkProjectMesh(pf);
        if (check.status == MeshStatus::Missing) {
            emit projectMeshMissing(path, QString::fromStdString(check.message));
            return;
        }
    } catch (const std::exception& e) {
        emit stageFailed(Task::Project, QString::fromUtf8(e.what()));
        return;
    }
    const std::optional<QString> recoverAs = std::exchange(m_recoverAs, std::nullopt);
    auto restored = std::make_shared<std::optional<RestoredProject>>();
    auto painted = std::make_shared<bool>(false);
    runStage(
        Task::Project,
        [file, meshPath, restored, painted](const RigProject&, const Progress& progress) -> Apply {
            ProjectFile pf = readProjectFile(file);
            if (!meshPath.empty())
                pf.meshPath = meshPath;
            *painted = pf.weights.names.count(paintedWeightsKey) > 0;
            std::shared_ptr<RestoredProject> r;
            try {
                r = std::make_shared<RestoredProject>(restoreProject(pf, progress));
            } catch (const InvalidInput& e) {
                throw InvalidInput(file + ": " + e.what());
            }
            return [r, restored](RigProject& p) {
                p = r->project;
                *restored = std::move(*r);
            };
        },
        [this, path, restored, recoverAs, painted] {
            m_undo.clear();
            m_projectPath = recoverAs ? *recoverAs : path;
            m_recovered = recoverAs.has_value();
            const RestoredProject& r = **restored;
            if (r.weights && m_project.rig()) {
                // The saved weights (matching the mesh and rig) stand in until
                // the recomputation below finishes.
                SkinningResult s;
                s.weights = *r.weights;
                s.segmentation = segmentationFromNearestLink(m_project.character()->imported.mesh.V,
                                                             m_project.rig()->skeleton);
                m_project.setSkinning(std::make_shared<const SkinningResult>(std::move(s)));
                if (*painted)
                    m_paintedSkinning = m_project.skinning();
            }
            const bool keepPainted = *painted && r.weights && m_project.rig();
            emit characterChanged();
            emit curveSkeletonChanged();
            emit weightOptionsChanged();
            emit partBindingsChanged();
            emit rigChanged();
            emit deformerChanged(QString::fromStdString(m_project.deformer())); // the project's own
            emit projectOpened(path, r.camera);
            for (const std::string& note : r.notes)
                emit rigNotice(QString::fromStdString(note));
            if (!r.mesh.message.empty())
                emit rigNotice(QString::fromStdString(r.mesh.message));
            if (!r.clipPath.empty()) // part of the project, not an edit: the clip stage reads it after the weights
                m_project.setClipPath(r.clipPath);
            if (keepPainted) // painted weights are the artist's: not recomputed (the clip still loads)
                emit skinningChanged();
            else
                computeWeights();
            setModified(recoverAs.has_value()); // recovered work is not saved anywhere yet
        });
}

void Document::recoverProject(const QString& autosave, const QString& projectPath)
{
    m_recoverAs = projectPath;
    openProject(autosave);
    m_recoverAs.reset(); // openProject() took it, or failed before the stage
}

void Document::exportGltf(const QString& path) { exportGltf(path, GltfExportRequest{}); }

void Document::exportGltf(const QString& path, const GltfExportRequest& request)
{
    const auto& skinning = m_project.skinning();
    if (!m_project.rig() || !skinning) {
        emit stageFailed(Task::Export,
                         tr("Cannot export %1 yet: the character needs a rig and weights first.").arg(path));
        return;
    }
    const std::string file = path.toStdString();
    std::vector<std::string> extraClips;
    for (const QString& c : request.extraClips)
        extraClips.push_back(c.toStdString());
    runStage(
        Task::Export,
        [this, file, request, extraClips](const RigProject& p, const Progress&) -> Apply {
            const auto& clip = p.clip();
            GltfExportOptions options;
            options.firstFrame = request.firstFrame;
            options.lastFrame = request.lastFrame;
            options.rootTranslation = request.rootMotion;
            std::vector<std::string> warnings;
            const ImportedCharacter& character = p.character()->imported;
            if (request.metres) {
                if (character.info.metresPerUnit > 0)
                    options.scale = character.info.metresPerUnit;
                else
                    warnings.push_back(p.character()->displayName +
                                       " does not say its units: exported in its own units");
            }
            std::vector<LoadedClip> extra;
            for (const std::string& c : extraClips)
                extra.push_back(rig::loadClip(p, c));
            // The glTF writer takes lists of poses: copies of the flat clips for the export.
            std::vector<std::vector<Pose>> poses;
            if (clip && request.includeClip)
                poses.push_back(rig::toPoses(clip->retargeted.frames));
            for (const LoadedClip& c : extra)
                poses.push_back(rig::toPoses(c.retargeted.frames));
            std::vector<GltfClip> clips;
            size_t k = 0;
            if (clip && request.includeClip)
                clips.push_back({clip->name, poses[k++], clip->retargeted.frameTime});
            for (size_t i = 0; i < extra.size(); ++i)
                clips.push_back({extra[i].name.empty() ? "clip " + std::to_string(i + 2) : extra[i].name,
                                 poses[k++], extra[i].retargeted.frameTime});
            const Skeleton named = withBoneNames(p.rig()->skeleton, request.boneNames.toStdString());
            const GltfExportReport report =
                rig::exportCharacterGltf(file, character, named, p.skinning()->weights, clips, options);
            warnings.insert(warnings.end(), report.warnings.begin(), report.warnings.end());
            return [this, warnings](RigProject&) {
                for (const std::string& w : warnings)
                    emit rigNotice(QString::fromStdString(w));
            };
        },
        [] {});
}

bool Document::exportClipBvh(const QString& path)
{
    const auto& clip = m_project.clip();
    if (!clip || !m_project.rig()) {
        emit stageFailed(Task::Export, tr("No clip to save: load a clip first (File ▸ Load Clip…)."));
        return false;
    }
    try {
        writeBvh(retargetedMotion(clip->retargeted, m_project.rig()->skeleton), path.toStdString());
    } catch (const std::exception& e) {
        emit stageFailed(Task::Export, QString::fromUtf8(e.what()));
        return false;
    }
    return true;
}

} // namespace rig::ui
