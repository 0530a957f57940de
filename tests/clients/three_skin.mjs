// An independent glTF client for Rigsmith's tests: three.js's GLTFLoader under Node.
//
//   node three_skin.mjs IN.glb OUT.json T1 [T2 ...]
//
// Loads IN.glb with GLTFLoader.parse (Node has no DOM and no fetch of file URLs;
// images are left unloaded, see below), finds the SkinnedMesh and checks that
// its skeleton has every joint of the skin, plays the first animation with an
// AnimationMixer at each time T (seconds; the clip is played once and clamped, so
// T = duration is the last key rather than a wrap to the start), and writes the
// skinned vertex positions as three.js computes them on the CPU
// (SkinnedMesh.applyBoneTransform, the same math as its vertex shader), in world space:
//   { "meshes": n, "joints": [names], "vertices": V, "animations": [{name, duration, tracks}],
//     "frames": [ {"time": T, "positions": [x0, y0, z0, x1, ...]} ] }
// Exit code 0 on success, 1 with a message on stderr otherwise.
import fs from 'node:fs';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

function fail(message) {
  process.stderr.write(`three_skin.mjs: ${message}\n`);
  process.exit(1);
}

const [input, output, ...timeArgs] = process.argv.slice(2);
if (!input || !output) fail('usage: node three_skin.mjs IN.glb OUT.json T1 [T2 ...]');
const times = timeArgs.map(Number);
if (times.some((t) => !Number.isFinite(t))) fail(`times must be numbers, got ${timeArgs.join(' ')}`);

// Textured files: GLTFLoader reaches for the browser's `self` (URL.createObjectURL of the
// images); Node has no image decoder, so the textures stay unloaded (the geometry, skin and
// animation this check reads do not need them).
if (typeof globalThis.self === 'undefined') globalThis.self = globalThis;
const bytes = fs.readFileSync(input);
const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
const gltf = await new Promise((resolve, reject) => new GLTFLoader().parse(arrayBuffer, '', resolve, reject)).catch(
  (e) => fail(`${input}: GLTFLoader could not parse the file: ${e && e.message ? e.message : e}`));

const meshes = [];
gltf.scene.traverse((o) => { if (o.isSkinnedMesh) meshes.push(o); });
if (meshes.length !== 1) fail(`${input}: expected one SkinnedMesh, found ${meshes.length}`);
const mesh = meshes[0];
const bones = mesh.skeleton.bones;
if (bones.some((b) => !b || !b.isBone)) fail(`${input}: a joint of the skin is not a Bone`);
const skinJoints = gltf.parser.json.skins[0].joints.length;
if (bones.length !== skinJoints) fail(`${input}: the skeleton has ${bones.length} bones for ${skinJoints} skin joints`);
const skinIndex = mesh.geometry.getAttribute('skinIndex');
const skinWeight = mesh.geometry.getAttribute('skinWeight');
if (!skinIndex || !skinWeight) fail(`${input}: the mesh has no skinIndex/skinWeight attributes`);

const mixer = new THREE.AnimationMixer(gltf.scene);
if (gltf.animations.length > 0) {
  const action = mixer.clipAction(gltf.animations[0]);
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  action.play();
}
const position = mesh.geometry.getAttribute('position');
const v = new THREE.Vector3();
const frames = [];
for (const t of times) {
  mixer.setTime(t);
  gltf.scene.updateMatrixWorld(true);
  mesh.skeleton.update();
  const positions = new Array(position.count * 3);
  for (let i = 0; i < position.count; ++i) {
    v.fromBufferAttribute(position, i);
    mesh.applyBoneTransform(i, v);
    v.applyMatrix4(mesh.matrixWorld);
    positions[3 * i] = v.x;
    positions[3 * i + 1] = v.y;
    positions[3 * i + 2] = v.z;
  }
  frames.push({ time: t, positions });
}
const result = {
  meshes: meshes.length,
  joints: bones.map((b) => b.name),
  vertices: position.count,
  animations: gltf.animations.map((a) => ({ name: a.name, duration: a.duration, tracks: a.tracks.length })),
  frames,
};
fs.writeFileSync(output, JSON.stringify(result));
