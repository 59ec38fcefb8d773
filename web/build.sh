#!/usr/bin/env bash
# Builds the sandbox for the browser: build-web/index.html, ballpit.js and
# ballpit.wasm, to be served as static files (docs/web.md).
#
#   bash web/build.sh            from the repository root
#
# 1. installs what it needs from Debian's packages (emscripten, meson, ...);
# 2. builds SDL2 2.26.5 and SDL2_gfx 1.0.4 for wasm from Debian's own source
#    packages into a cache folder (BALLPIT_WEB_DEPS, default build-web/deps),
#    once: a cache that holds both libraries is used as it is;
# 3. configures build-web with Meson for emscripten (a cross file written
#    here, since it names the cache's absolute path) and builds the page.
#
# SDL2 is compiled file by file with emcc from a list, the way emscripten's
# own SDL2 port does it, with SDL's ready-made SDL_config_emscripten.h: the
# CMake configure would spend about 7 minutes of emcc start-ups on checks
# whose answers that header already holds.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export DEBIAN_FRONTEND=noninteractive

BUILD=${BALLPIT_WEB_BUILD:-build-web}
DEPS=${BALLPIT_WEB_DEPS:-$BUILD/deps}
mkdir -p "$DEPS"
DEPS=$(cd "$DEPS" && pwd)
JOBS=$(nproc 2>/dev/null || echo 2)

SDL_VERSION=2.26.5
GFX_VERSION=1.0.4
# How the libraries are compiled: a cache made another way is made again.
DEPS_CFLAGS=(-Oz -w)
DEPS_RECIPE="SDL2 $SDL_VERSION, SDL2_gfx $GFX_VERSION, ${DEPS_CFLAGS[*]}, recipe 1"

# Debian's emcc finds acorn and the other JavaScript modules it runs with
# node there; a node from elsewhere does not look in that folder itself.
export NODE_PATH=${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs

log() { printf 'web/build.sh: %s\n' "$*" >&2; }

install_packages() {
    local need=(emscripten meson ninja-build pkg-config python3 dpkg-dev)
    local missing=() p
    for p in "${need[@]}"; do
        dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
            missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    log "installing ${missing[*]}"
    local sudo=
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update
    $sudo apt-get install -y --no-install-recommends "${missing[@]}" </dev/null
}

# Debian's source packages of SDL2 and SDL2_gfx: only their upstream
# tarballs (.orig) are used. `apt-get source` needs a deb-src line; if the
# system has none, one for Debian's main archive is added.
fetch_sources() {
    local dir=$DEPS/src
    mkdir -p "$dir"
    if ls "$dir"/libsdl2_${SDL_VERSION}*.orig.tar.gz >/dev/null 2>&1 &&
        ls "$dir"/libsdl2-gfx_${GFX_VERSION}*.orig.tar.gz >/dev/null 2>&1; then
        return 0
    fi
    if ! apt-get source --print-uris libsdl2 >/dev/null 2>&1; then
        log "no deb-src line for the system's suite: adding one"
        local suite
        suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
        local sudo=
        [ "$(id -u)" -eq 0 ] || sudo=sudo
        printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
            "$suite" | $sudo tee /etc/apt/sources.list.d/ballpit-web-src.sources >/dev/null
        $sudo apt-get update
    fi
    # --download-only: the packaging tarball of libsdl2-gfx is missing from
    # the archive, so unpacking would fail; the .orig tarballs are all we use.
    (cd "$dir" && { apt-get source --download-only libsdl2 libsdl2-gfx || true; })
    ls "$dir"/libsdl2_${SDL_VERSION}*.orig.tar.gz "$dir"/libsdl2-gfx_${GFX_VERSION}*.orig.tar.gz \
        >/dev/null || { log "the SDL2 $SDL_VERSION / SDL2_gfx $GFX_VERSION sources did not arrive"; exit 1; }
}

# Compiles C files in parallel: $1 = source dir, $2 = object dir, then the
# emcc flags, then -- and the files.
compile_all() {
    local src=$1 obj=$2
    shift 2
    local flags=()
    while [ "$1" != -- ]; do flags+=("$1"); shift; done
    shift
    local f
    for f in "$@"; do
        mkdir -p "$obj/$(dirname "$f")"
        printf '%s\0' "$f"
    done | xargs -0 -P "$JOBS" -I{} emcc -c "$src/{}" -o "$obj/{}.o" "${flags[@]}"
}

# SDL2's sources for emscripten without threads: the list of emscripten's
# SDL2 port brought up to 2.26 (SDL_guid, SDL_list, SDL_utils, the scancode
# tables, the virtual joystick, the crc16 and emscripten's own URL opener).
SDL_SOURCES=(
    SDL.c SDL_assert.c SDL_dataqueue.c SDL_error.c SDL_guid.c SDL_hints.c SDL_list.c SDL_log.c
    SDL_utils.c
    atomic/SDL_atomic.c atomic/SDL_spinlock.c
    audio/SDL_audio.c audio/SDL_audiocvt.c audio/SDL_audiodev.c audio/SDL_audiotypecvt.c
    audio/SDL_mixer.c audio/SDL_wave.c audio/emscripten/SDL_emscriptenaudio.c
    audio/disk/SDL_diskaudio.c audio/dummy/SDL_dummyaudio.c
    cpuinfo/SDL_cpuinfo.c dynapi/SDL_dynapi.c
    events/SDL_clipboardevents.c events/SDL_displayevents.c events/SDL_dropevents.c
    events/SDL_events.c events/SDL_gesture.c events/SDL_keyboard.c
    events/SDL_keysym_to_scancode.c events/SDL_mouse.c events/SDL_quit.c
    events/SDL_scancode_tables.c events/SDL_touch.c events/SDL_windowevents.c
    file/SDL_rwops.c filesystem/emscripten/SDL_sysfilesystem.c
    haptic/SDL_haptic.c haptic/dummy/SDL_syshaptic.c
    joystick/SDL_gamecontroller.c joystick/SDL_joystick.c joystick/controller_type.c
    joystick/emscripten/SDL_sysjoystick.c joystick/virtual/SDL_virtualjoystick.c
    loadso/dlopen/SDL_sysloadso.c
    locale/SDL_locale.c locale/emscripten/SDL_syslocale.c
    main/dummy/SDL_dummy_main.c
    misc/SDL_url.c misc/emscripten/SDL_sysurl.c
    power/SDL_power.c power/emscripten/SDL_syspower.c
    render/SDL_d3dmath.c render/SDL_render.c render/SDL_yuv_sw.c
    render/opengles2/SDL_render_gles2.c render/opengles2/SDL_shaders_gles2.c
    render/software/SDL_blendfillrect.c render/software/SDL_blendline.c
    render/software/SDL_blendpoint.c render/software/SDL_drawline.c
    render/software/SDL_drawpoint.c render/software/SDL_render_sw.c
    render/software/SDL_rotate.c render/software/SDL_triangle.c
    sensor/SDL_sensor.c sensor/dummy/SDL_dummysensor.c
    stdlib/SDL_crc16.c stdlib/SDL_crc32.c stdlib/SDL_getenv.c stdlib/SDL_iconv.c
    stdlib/SDL_malloc.c stdlib/SDL_qsort.c stdlib/SDL_stdlib.c stdlib/SDL_string.c
    stdlib/SDL_strtokr.c
    thread/SDL_thread.c thread/generic/SDL_syscond.c thread/generic/SDL_sysmutex.c
    thread/generic/SDL_syssem.c thread/generic/SDL_systhread.c thread/generic/SDL_systls.c
    timer/SDL_timer.c timer/unix/SDL_systimer.c
    video/SDL_RLEaccel.c video/SDL_blit.c video/SDL_blit_0.c video/SDL_blit_1.c
    video/SDL_blit_A.c video/SDL_blit_N.c video/SDL_blit_auto.c video/SDL_blit_copy.c
    video/SDL_blit_slow.c video/SDL_bmp.c video/SDL_clipboard.c video/SDL_egl.c
    video/SDL_fillrect.c video/SDL_pixels.c video/SDL_rect.c video/SDL_shape.c
    video/SDL_stretch.c video/SDL_surface.c video/SDL_video.c video/SDL_vulkan_utils.c
    video/SDL_yuv.c video/yuv2rgb/yuv_rgb.c
    video/emscripten/SDL_emscriptenevents.c video/emscripten/SDL_emscriptenframebuffer.c
    video/emscripten/SDL_emscriptenmouse.c video/emscripten/SDL_emscriptenopengles.c
    video/emscripten/SDL_emscriptenvideo.c
    video/dummy/SDL_nullevents.c video/dummy/SDL_nullframebuffer.c video/dummy/SDL_nullvideo.c
)

# Drops a cache built from other versions or flags.
check_recipe() {
    if [ "$(cat "$DEPS/lib/recipe" 2>/dev/null)" != "$DEPS_RECIPE" ]; then
        rm -rf "$DEPS/lib" "$DEPS/include"
        mkdir -p "$DEPS/lib"
        printf '%s\n' "$DEPS_RECIPE" >"$DEPS/lib/recipe"
    fi
}

build_sdl2() {
    [ -f "$DEPS/lib/libSDL2.a" ] && return 0
    log "building SDL2 $SDL_VERSION for wasm (a few minutes)"
    local work=$DEPS/work/sdl2
    rm -rf "$work"
    mkdir -p "$work"
    tar xzf "$DEPS"/src/libsdl2_${SDL_VERSION}*.orig.tar.gz -C "$work"
    local top=$work/SDL2-$SDL_VERSION
    compile_all "$top/src" "$work/obj" "${DEPS_CFLAGS[@]}" -I"$top/include" -- "${SDL_SOURCES[@]}"
    mkdir -p "$DEPS/include/SDL2" "$DEPS/lib"
    cp "$top"/include/*.h "$DEPS/include/SDL2/"
    local objs=()
    local f
    for f in "${SDL_SOURCES[@]}"; do objs+=("$work/obj/$f.o"); done
    emar rcs "$DEPS/lib/libSDL2.a.tmp" "${objs[@]}"
    mv "$DEPS/lib/libSDL2.a.tmp" "$DEPS/lib/libSDL2.a"
    rm -rf "$work"
}

build_sdl2_gfx() {
    [ -f "$DEPS/lib/libSDL2_gfx.a" ] && return 0
    log "building SDL2_gfx $GFX_VERSION for wasm"
    local work=$DEPS/work/gfx
    rm -rf "$work"
    mkdir -p "$work"
    tar xzf "$DEPS"/src/libsdl2-gfx_${GFX_VERSION}*.orig.tar.gz -C "$work"
    local top=$work/SDL2_gfx-$GFX_VERSION
    local files=(SDL2_framerate.c SDL2_gfxPrimitives.c SDL2_imageFilter.c SDL2_rotozoom.c)
    # No MMX in wasm: the image filters take their C path.
    compile_all "$top" "$work/obj" "${DEPS_CFLAGS[@]}" -I"$DEPS/include/SDL2" -- "${files[@]}"
    cp "$top"/SDL2_framerate.h "$top"/SDL2_gfxPrimitives.h "$top"/SDL2_gfxPrimitives_font.h \
        "$top"/SDL2_imageFilter.h "$top"/SDL2_rotozoom.h "$DEPS/include/SDL2/"
    local objs=() f
    for f in "${files[@]}"; do objs+=("$work/obj/$f.o"); done
    emar rcs "$DEPS/lib/libSDL2_gfx.a.tmp" "${objs[@]}"
    mv "$DEPS/lib/libSDL2_gfx.a.tmp" "$DEPS/lib/libSDL2_gfx.a"
    rm -rf "$work"
}

# The cross file names the cache by its absolute path, so it is written
# here rather than kept in the repository.
write_cross_file() {
    mkdir -p "$BUILD" # a cache elsewhere (BALLPIT_WEB_DEPS) made no build folder yet
    cat >"$BUILD/emscripten.ini.tmp" <<CROSS
# Written by web/build.sh.
[binaries]
c = 'emcc'
ar = 'emar'
exe_wrapper = ['node', '--no-experimental-fetch']

[host_machine]
system = 'emscripten'
cpu_family = 'wasm32'
cpu = 'wasm32'
endian = 'little'

[built-in options]
# Meson 1.0 compares emcc's own version (3.1) with clang's for C17 and
# refuses c_std=c17: the standard is given by hand instead.
c_std = 'none'
c_args = ['-std=c17']

[properties]
ballpit_web_deps = '$DEPS'
CROSS
    if ! cmp -s "$BUILD/emscripten.ini.tmp" "$BUILD/emscripten.ini"; then
        mv "$BUILD/emscripten.ini.tmp" "$BUILD/emscripten.ini"
    else
        rm "$BUILD/emscripten.ini.tmp"
    fi
}

# Meson in $BUILD/meson; the site (index.html, ballpit.js, ballpit.wasm)
# copied to $BUILD itself. -Dapp=disabled: not the desktop program, which
# needs the system's SDL; web/meson.build builds the browser's.
build_page() {
    write_cross_file
    local opts=(-Dapp=disabled -Dchipmunk=disabled -Dbuildtype=minsize -Dwerror=true)
    if [ -f "$BUILD/meson/build.ninja" ]; then
        meson configure "$BUILD/meson" "${opts[@]}" </dev/null >/dev/null
    else
        meson setup "$BUILD/meson" --cross-file "$BUILD/emscripten.ini" "${opts[@]}" </dev/null
    fi
    ninja -C "$BUILD/meson" </dev/null
    local f
    for f in index.html ballpit.js ballpit.wasm; do
        cp "$BUILD/meson/web/$f" "$BUILD/$f.tmp"
        mv "$BUILD/$f.tmp" "$BUILD/$f"
    done
}

install_packages
fetch_sources
check_recipe
build_sdl2
build_sdl2_gfx
build_page
log "built $BUILD/index.html, ballpit.js and ballpit.wasm: serve $BUILD over http (docs/web.md)"
