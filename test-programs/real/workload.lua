-- A small, deterministic Lua workload for the real-program tests: recursion, tables, strings,
-- closures, coroutines, sorting and errors caught by pcall (Lua raises errors with longjmp).
-- Prints only values that do not depend on addresses or on the string hash seed.
local n = tonumber(arg[1]) or 200

local function fib(k) if k < 2 then return k end return fib(k - 1) + fib(k - 2) end
print("fib(18)", fib(18))                      -- 2584

local t = {}
for i = 1, n do t[i] = (i * 7919) % 1009 end
table.sort(t)
local s = 0
for i = 1, n do s = s + t[i] end
print("sorted", t[1], t[n], s)

local words = {}
for i = 1, n do words[#words + 1] = string.format("w%03d", i % 97) end
local text = table.concat(words, " ")
local count = 0
for _ in text:gmatch("w0%d%d") do count = count + 1 end
print("words", #text, count, (text:gsub("w", "W")):sub(1, 12))

local function counter()
  local c = 0
  return function() c = c + 1; return c end
end
local next_id = counter()
for _ = 1, n do next_id() end
print("closure", next_id())

local co = coroutine.wrap(function()
  for i = 1, 5 do coroutine.yield(i * i) end
end)
local sq = {}
for _ = 1, 5 do sq[#sq + 1] = co() end
print("coroutine", table.concat(sq, ","))

local caught = 0
for i = 1, n do
  local ok, err = pcall(function() if i % 3 == 0 then error("bad " .. i, 0) end return i end)
  if not ok then caught = caught + 1; assert(err == "bad " .. i) end
end
print("pcall", caught)

local set = {}
for i = 1, n do set["k" .. (i % 50)] = (set["k" .. (i % 50)] or 0) + i end
local keys = {}
for k in pairs(set) do keys[#keys + 1] = k end
table.sort(keys)
print("keys", #keys, keys[1], keys[#keys], set[keys[1]])
