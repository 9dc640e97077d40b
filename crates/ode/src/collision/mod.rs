//! Collision detection (collision.h, collision_space.h), a stack of layers
//! from the bottom up: no module uses one of a higher layer.
//!
//! 1. Data: `shapes` (plain shape data and poses, what colliders read) and
//!    `contact` (`ContactSink`, the strided `dContactGeom` output).
//! 2. Pure colliders and the data they read: `trimesh` (triangle mesh
//!    data, its BVH and the trimesh colliders), `colliders/` (one file per
//!    pair family; `ccd` also reads mesh views), `heightfield_data`
//!    (heightfield sample data objects). Functions over shapes and poses,
//!    no geom objects, so they are testable on their own.
//! 3. `geom`: geom objects (pooled handles), bodies, offsets, AABBs, bits,
//!    transforms' records; what it needs of the spaces and user classes
//!    above it, it reaches through hooks they register.
//! 4. On geoms: `space` (simple, hash, quadtree and sweep-and-prune
//!    spaces), `trimesh_geom` (trimesh geoms' callbacks and pair entries),
//!    `heightfield` (the heightfield collider), `transform` (the geom
//!    transform collider).
//! 5. `dispatch`: `dCollide`'s class-pair table, argument swapping, g1/g2.
//! 6. `user_class` (host-defined geom classes) and `draw` (debug drawing,
//!    shapes at their world placement, `odexSpaceDraw`).
pub mod colliders;
pub mod contact;
pub mod dispatch;
pub mod draw;
pub mod geom;
pub mod heightfield;
pub mod heightfield_data;
pub mod shapes;
pub mod space;
pub mod transform;
pub mod trimesh;
pub mod trimesh_geom;
pub mod user_class;
