# SPDX-License-Identifier: GPL-2.0
# schema_errors(SCHEMA): what in the input does not match SCHEMA, a JSON
# Schema of the subset docs/report.schema.json uses: type (a name or a
# list; "integer" too), enum, required, properties, additionalProperties
# (false), items, and "$ref": "#/$defs/NAME".  An empty array: it matches.
def schema_errors($root):
	def is($t): type as $jt | $t == $jt or ($t == "integer" and $jt == "number" and . == floor);
	def errs($s; $p):
		. as $v
		| if $s["$ref"] then errs($root["$defs"][$s["$ref"] | ltrimstr("#/$defs/")]; $p)
		else
			(if $s.type == null then empty else
				([$s.type] | flatten) as $ts
				| if any($ts[]; . as $t | $v | is($t)) then empty
				  else "\($p): \($v | type) is not \($ts | join(" or "))" end
			 end),
			(if $s.enum == null or any($s.enum[]; . == $v) then empty
			 else "\($p): \($v | tojson) is not one of \($s.enum | tojson)" end),
			(if ($v | type) != "object" then empty else
				($s.required // [] | .[] | select(. as $k | $v | has($k) | not) | "\($p): no \(.)"),
				(($s.properties // {}) | to_entries[] | . as $e
					| select($v | has($e.key)) | $v[$e.key] | errs($e.value; "\($p).\($e.key)")),
				(if $s.additionalProperties == false then
					$v | keys[] | select(. as $k | $s.properties // {} | has($k) | not)
					| "\($p): unknown \(.)"
				 else empty end)
			 end),
			(if ($v | type) != "array" or $s.items == null then empty else
				$v | to_entries[] | .key as $i | .value | errs($s.items; "\($p)[\($i)]")
			 end)
		end;
	[errs($root; "")];
