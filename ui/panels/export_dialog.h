#pragma once
/// @file export_dialog.h
/// File ▸ Export: where to write the rigged character (.glb, or .gltf with its
/// images beside it) and what to put in it: the loaded clip or none, more BVH
/// clips as separate animations, a frame range, the source's units or metres,
/// the clip's root motion, and the joints' names (an engine's preset,
/// core/rig/bone_names.h; the last choice is remembered).

#include <QDialog>
#include <QString>
#include <QStringList>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QListWidget;
class QRadioButton;
class QSpinBox;

namespace rig::ui {

/// What the dialog asks for.
struct ExportChoice {
    QString path;               ///< The file to write (.glb or .gltf).
    bool includeClip = true;    ///< The loaded clip as an animation.
    QStringList extraClips;     ///< More BVH files, each retargeted and written as its own animation.
    int firstFrame = 0;         ///< Frames written of each clip: [firstFrame, lastFrame].
    int lastFrame = -1;         ///< -1: to the end of the clip.
    bool metres = false;        ///< Scale to metres (where the file says its unit); else keep the source's units.
    bool rootMotion = true;     ///< Key the root's translation.
    QString boneNames = "rigsmith"; ///< A preset of core/rig/bone_names.h.
};

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    /// @param clipName the loaded clip's name, empty when none is loaded.
    /// @param clipFrames its frame count.
    /// @param startFolder where the file goes by default (see startFolder()).
    /// @param baseName the file name to suggest, without extension.
    ExportDialog(const QString& clipName, int clipFrames, const QString& startFolder, const QString& baseName,
                 QWidget* parent = nullptr);

    ExportChoice choice() const;

    /// Where an export goes by default: the project's folder when the
    /// character was saved as a project and that folder is writable, else the
    /// user's documents folder (never the source file's folder, which may be
    /// read-only, like /usr/share).
    static QString startFolder(const QString& projectPath);

private:
    void browse();
    void syncExtension();

    QLineEdit* m_path;
    QComboBox* m_format;
    QCheckBox* m_includeClip;
    QListWidget* m_extraClips;
    QSpinBox* m_first;
    QSpinBox* m_last;
    QRadioButton* m_metres;
    QCheckBox* m_rootMotion;
    QComboBox* m_boneNames;
};

} // namespace rig::ui
