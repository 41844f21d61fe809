/* Lua's interpreter as a program: the VM and standard libraries come from the lua-src crate's
 * Lua 5.4 sources (fetched by cargo, not vendored here); this file is the host, as lua.c is.
 *
 * Usage: lua_driver SCRIPT.lua [ARGS...]   runs the script with `arg` set like `lua` does;
 * a Lua error prints its message on stderr and exits with status 1.
 */
#include <stdio.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s SCRIPT.lua [ARGS...]\n", argv[0]);
        return 2;
    }
    lua_State *L = luaL_newstate();
    if (L == NULL) {
        fprintf(stderr, "cannot create the Lua state\n");
        return 1;
    }
    luaL_openlibs(L);
    lua_createtable(L, argc, 1);
    for (int i = 1; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_seti(L, -2, i - 1);
    }
    lua_setglobal(L, "arg");
    int status = luaL_dofile(L, argv[1]);
    if (status != LUA_OK) {
        fprintf(stderr, "lua: %s\n", lua_tostring(L, -1));
        lua_close(L);
        return 1;
    }
    lua_close(L);
    return 0;
}
