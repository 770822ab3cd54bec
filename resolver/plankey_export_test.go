package resolver

// PlanKey is the key that tells suggestions apart (planKeys), for
// TestPlanKeyIsCompactText.
func PlanKey(p *Plan) string { return string(appendPlanKey(nil, p)) }
