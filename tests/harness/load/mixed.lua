-- wrk script: mixed cache-hit and cache-miss generate traffic.
-- Every 5th request of a connection is a miss (a description never seen
-- before); the rest repeat one of 8 warm forms (hits after their first
-- answer). All requests are POST /v1/generate with a real tool call.
local counter = 0
local thread_id = 0

setup = function(thread)
  thread:set("id", thread_id)
  thread_id = thread_id + 1
end

local output = '{"type":"object","required":["firstName","lastName","city","country"],"properties":{' ..
  '"firstName":{"type":"string","title":"First Name"},"lastName":{"type":"string","title":"Last Name"},' ..
  '"street":{"type":"string"},"city":{"type":"string"},"postalCode":{"type":"string"},' ..
  '"country":{"type":"string","enum":["GB","US","DE","AT"]}}}'

request = function()
  counter = counter + 1
  local description
  if counter % 5 == 0 then
    description = string.format("load miss %s-%d-%d", os.time(), id, counter)
  else
    description = string.format("load warm form %d", counter % 8)
  end
  local body = '{"tool":"generateUserInterface","arguments":{"description":"' .. description ..
    '","data":{"firstName":"Ada","city":"London"},"output":' .. output .. '}}'
  return wrk.format("POST", "/v1/generate", {["content-type"] = "application/json"}, body)
end
